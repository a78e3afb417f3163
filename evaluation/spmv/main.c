/*
 * SpMV: y = A x, A sparse in CSR form, through the repository's spmv
 * component (CPU, OpenMP, OpenCL and CUDA variants), ITERS calls on the
 * same matrix with a new x each, checked against spmv_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "spmv_seq.h"

#define ITERS 10

int main(int argc, char **argv)
{
	int m = eval_size(argc, argv, 20000), it, i;
	struct spmv_csr a;
	double *x = malloc((size_t)m * sizeof(double)), *y = malloc((size_t)m * sizeof(double));
	double *ref = malloc((size_t)m * sizeof(double)), t0;
	long bad = 0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	spmv_generate(&a, m);
	if (!a.rowptr || !x || !y || !ref)
		return 1;
	for (i = 0; i < m; i++)
		x[i] = 1.0 + (double)i / m;

	t0 = 0;
	for (it = 0; it < ITERS; it++) {
		double t = eval_now();

		spmv(m, m, a.nnz, a.rowptr, a.colind, a.val, x, y);
		t0 += eval_now() - t;
		spmv_reference(&a, x, ref);
		bad += eval_diff_double(y, ref, m, 1e-12);
		for (i = 0; i < m; i++) /* the next x: this y, kept within [-1, 1] */
			x[i] = y[i] / (1.0 + fabs(y[i]));
	}
	PEPPHER_SHUTDOWN();

	spmv_free(&a);
	return eval_report("spmv", m, t0, bad);
}
