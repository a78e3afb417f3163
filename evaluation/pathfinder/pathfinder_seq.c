/* PathFinder's input generator and sequential reference. */
#include <stdlib.h>
#include <string.h>

#include "../common/eval.h"
#include "pathfinder_seq.h"

void pathfinder_generate(int *wall, int rows, int cols)
{
	struct eval_rng r = { 9 };
	long i;

	for (i = 0; i < (long)rows * cols; i++)
		wall[i] = (int)(eval_rand(&r) % 10);
}

void pathfinder_reference(const int *wall, int rows, int cols, int *result)
{
	int *prev = malloc((size_t)cols * sizeof(*prev));
	int i, j;

	memcpy(result, wall, (size_t)cols * sizeof(*result));
	for (i = 1; i < rows; i++) {
		memcpy(prev, result, (size_t)cols * sizeof(*prev));
		for (j = 0; j < cols; j++) {
			int best = prev[j];

			if (j > 0 && prev[j - 1] < best)
				best = prev[j - 1];
			if (j < cols - 1 && prev[j + 1] < best)
				best = prev[j + 1];
			result[j] = wall[(long)i * cols + j] + best;
		}
	}
	free(prev);
}
