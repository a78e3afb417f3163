/* BFS's input generator and sequential reference (not a component). */
#ifndef BFS_SEQ_H
#define BFS_SEQ_H

struct bfs_graph {
	int n, m;
	int *starts, *degrees, *edges;
};

/* n nodes, each with 2 to 4 edges to nearby nodes and now and then one far
 * away: a graph of many levels */
void bfs_generate(struct bfs_graph *g, int n);
/* the level of every node from node 0 (-1: unreachable), with a queue */
void bfs_reference(const struct bfs_graph *g, int *cost);

#endif
