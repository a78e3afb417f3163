/* BFS's input generator and sequential reference. */
#include <stdlib.h>

#include "../common/eval.h"
#include "bfs_seq.h"

void bfs_generate(struct bfs_graph *g, int n)
{
	struct eval_rng r = { 3 };
	int i, k;

	g->n = n;
	g->m = 0;
	g->starts = malloc((size_t)n * sizeof(int));
	g->degrees = malloc((size_t)n * sizeof(int));
	g->edges = malloc((size_t)n * 5 * sizeof(int));
	for (i = 0; i < n; i++) {
		g->starts[i] = g->m;
		g->degrees[i] = 2 + (int)(eval_rand(&r) % 3);
		for (k = 0; k < g->degrees[i]; k++) {
			int to = i + (int)(eval_rand(&r) % 129) - 64;

			g->edges[g->m++] = to < 0 ? -to : to >= n ? 2 * n - 2 - to : to;
		}
		if (eval_rand(&r) % 64 == 0) {
			g->edges[g->m++] = (int)(eval_rand(&r) % (unsigned)n);
			g->degrees[i]++;
		}
	}
}

void bfs_reference(const struct bfs_graph *g, int *cost)
{
	int *queue = malloc((size_t)g->n * sizeof(int)), head = 0, tail = 0, i, k;

	for (i = 0; i < g->n; i++)
		cost[i] = -1;
	cost[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		i = queue[head++];
		for (k = g->starts[i]; k < g->starts[i] + g->degrees[i]; k++)
			if (cost[g->edges[k]] < 0) {
				cost[g->edges[k]] = cost[i] + 1;
				queue[tail++] = g->edges[k];
			}
	}
	free(queue);
}
