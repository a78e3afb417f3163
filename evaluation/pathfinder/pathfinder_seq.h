/* PathFinder's input generator and sequential reference (not a component). */
#ifndef PATHFINDER_SEQ_H
#define PATHFINDER_SEQ_H

/* weights 0..9, rows x cols */
void pathfinder_generate(int *wall, int rows, int cols);
/* the cost of the cheapest path to each cell of the last row */
void pathfinder_reference(const int *wall, int rows, int cols, int *result);

#endif
