/*
 * PathFinder (Rodinia): dynamic programming down a grid, a pyramid of
 * HEIGHT rows per call of the pathfinder component.  Checked exactly
 * against pathfinder_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "pathfinder_seq.h"

#define ROWS 101
#define HEIGHT 10

int main(int argc, char **argv)
{
	int cols = eval_size(argc, argv, 10000), row;
	int *wall = malloc((size_t)ROWS * cols * sizeof(int)), *ref = malloc(cols * sizeof(int));
	int *src = malloc(cols * sizeof(int)), *dst = malloc(cols * sizeof(int));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	pathfinder_generate(wall, ROWS, cols);
	memcpy(src, wall, cols * sizeof(int));

	t0 = eval_now();
	for (row = 0; row < ROWS - 1; row += HEIGHT) {
		int *t;

		pathfinder(wall, src, dst, ROWS, cols, row, row + HEIGHT < ROWS ? HEIGHT : ROWS - 1 - row);
		t = src, src = dst, dst = t;
	}
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	pathfinder_reference(wall, ROWS, cols, ref);
	return eval_report("pathfinder", cols, t0, eval_diff_int(src, ref, cols));
}
