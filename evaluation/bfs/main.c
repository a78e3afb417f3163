/*
 * BFS (Rodinia): the level of every node of a graph from node 0, a level
 * per call of the bfs component, until the frontier is empty.  Each call
 * counts the next frontier's nodes, which the next call passes on: its
 * work (bfs.xml).  Checked
 * exactly against bfs_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "bfs_seq.h"

int main(int argc, char **argv)
{
	struct bfs_graph g;
	int n = eval_size(argc, argv, 100000), frontier, next = 1, i;
	int *mask = calloc(n, sizeof(int)), *updating = calloc(n, sizeof(int));
	int *visited = calloc(n, sizeof(int)), *cost = malloc(n * sizeof(int));
	int *ref = malloc(n * sizeof(int));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	bfs_generate(&g, n);
	for (i = 0; i < n; i++)
		cost[i] = -1;
	mask[0] = visited[0] = 1;
	cost[0] = 0;

	t0 = eval_now();
	for (frontier = 1; frontier; frontier = next)
		bfs(g.starts, g.degrees, g.edges, mask, updating, visited, cost, &next, frontier, n,
		    g.m);
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	bfs_reference(&g, ref);
	return eval_report("bfs", n, t0, eval_diff_int(cost, ref, n));
}
