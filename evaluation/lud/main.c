/*
 * LUD (Rodinia): LU decomposition of a dense matrix by 16 x 16 blocks: for
 * each diagonal block, a call of lud_panel (the block and its perimeter) and
 * one of lud_internal (the trailing matrix).  Checked against lud_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "lud_seq.h"

int main(int argc, char **argv)
{
	int n = eval_size(argc, argv, 256) / 16 * 16, k0;
	float *A = malloc((size_t)n * n * sizeof(float)), *ref = malloc((size_t)n * n * sizeof(float));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	lud_generate(A, n);
	memcpy(ref, A, (size_t)n * n * sizeof(float));

	t0 = eval_now();
	for (k0 = 0; k0 < n; k0 += 16) {
		lud_panel(A, n, k0);
		if (k0 + 16 < n)
			lud_internal(A, n, k0);
	}
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	lud_reference(ref, n);
	return eval_report("lud", n, t0, eval_diff_float(A, ref, (long)n * n, 1e-3));
}
