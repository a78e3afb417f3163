/*
 * Needleman-Wunsch (Rodinia): the global alignment score matrix of two
 * sequences, by 16 x 16 blocks in wavefront order: one call of the nw
 * component per block anti-diagonal.  Checked exactly against nw_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "nw_seq.h"

int main(int argc, char **argv)
{
	int n = eval_size(argc, argv, 512) / 16 * 16, dim = n + 1, diag;
	size_t cells = (size_t)dim * dim;
	int *score = malloc(cells * sizeof(int)), *ref = malloc(cells * sizeof(int));
	int *expect = malloc(cells * sizeof(int));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	nw_generate(score, ref, n);
	memcpy(expect, score, cells * sizeof(int));

	t0 = eval_now();
	for (diag = 0; diag < 2 * (n / 16) - 1; diag++)
		nw(score, ref, dim, diag, NW_PENALTY);
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	nw_reference(expect, ref, n);
	return eval_report("nw", n, t0, eval_diff_int(score, expect, (long)cells));
}
