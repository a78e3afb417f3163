/* Needleman-Wunsch's input generator and sequential reference (not a component). */
#ifndef NW_SEQ_H
#define NW_SEQ_H

#define NW_PENALTY 10

/* two random sequences of n items and their similarity ref[i][j] (row and
 * column 0 unused), and the score matrix's first row and column: dim = n + 1 */
void nw_generate(int *score, int *ref, int n);
/* the whole score matrix, row after row */
void nw_reference(int *score, const int *ref, int n);

#endif
