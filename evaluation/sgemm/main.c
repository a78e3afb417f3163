/*
 * SGEMM: C = alpha A B + beta C on n x n float matrices through the
 * repository's sgemm component (blocked loops, CBLAS, OpenMP, OpenCL and
 * CUDA variants), ITERS calls that accumulate into C, checked against
 * sgemm_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "sgemm_seq.h"

#define ITERS 8

int main(int argc, char **argv)
{
	int n = eval_size(argc, argv, 128), it;
	size_t cells = (size_t)n * n;
	float *A = malloc(cells * sizeof(float)), *B = malloc(cells * sizeof(float));
	float *C = malloc(cells * sizeof(float)), *ref = malloc(cells * sizeof(float));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	sgemm_generate(A, n, 1);
	sgemm_generate(B, n, 2);
	sgemm_generate(C, n, 3);
	memcpy(ref, C, cells * sizeof(float));

	t0 = eval_now();
	for (it = 0; it < ITERS; it++)
		sgemm(n, n, n, 1.0f, A, B, 0.5f, C);
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	for (it = 0; it < ITERS; it++)
		sgemm_reference(n, 1.0f, A, B, 0.5f, ref);
	/* float sums of n products against double ones: the error grows as sqrt(n) */
	return eval_report("sgemm", n, t0, eval_diff_float(C, ref, (long)cells, 1e-5 * sqrt(n)));
}
