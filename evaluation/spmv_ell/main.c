/*
 * SpMV for Fig. 5: y = A x, A sparse in ELLPACK form, each call of the
 * spmv_ell component split into blocks of rows run at once on the CPU
 * workers and the OpenCL (or CUDA) device, the blocks sized by the
 * history of each kind of worker (main.xml); main-device.xml composes the
 * same program with each call whole, for the device-only comparison.  The
 * matrix goes to the device at every call (raw pointers: nothing stays
 * registered between calls), as in the paper's measurements.  ITERS calls,
 * a new x each, checked against spmv_ell_seq.c.
 *   spmv_ell [ROWS [SLOTS]]
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "spmv_ell_seq.h"

#define ITERS 10

int main(int argc, char **argv)
{
	int m = eval_size(argc, argv, 20000), w = argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 8;
	size_t slots = (size_t)m * w;
	int *colind = malloc(slots * sizeof(int)), it, i;
	float *val = malloc(slots * sizeof(float)), *x = malloc((size_t)m * sizeof(float));
	float *y = malloc((size_t)m * sizeof(float)), *ref = malloc((size_t)m * sizeof(float));
	double t0 = 0;
	long bad = 0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	if (!colind || !val || !x || !y || !ref)
		return 1;
	spmv_ell_generate(colind, val, m, w);
	for (i = 0; i < m; i++)
		x[i] = 1.0f + (float)i / m;

	for (it = 0; it < ITERS; it++) {
		double t = eval_now();

		spmv_ell(colind, val, x, y, m, w, m);
		t0 += eval_now() - t;
		spmv_ell_reference(colind, val, x, ref, m, w);
		/* float sums of w products in another order: a relative 1e-5 */
		bad += eval_diff_float(y, ref, m, 1e-5 * w);
		for (i = 0; i < m; i++) /* the next x: this y, kept within [-1, 1] */
			x[i] = y[i] / (1.0f + fabsf(y[i]));
	}
	PEPPHER_SHUTDOWN();

	return eval_report("spmv_ell", m, t0, bad);
}
