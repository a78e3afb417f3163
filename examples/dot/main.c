/*
 * dot: reductions on partitioned calls.  x . y (the repository's dot),
 * ||x|| (nrm2) and max |x_i| (amax, an operator of this program's own), each
 * call split into 8 blocks (main.xml) that run at once on the CPU workers:
 * each block's task gets an accumulator of its own, set to the operator's
 * identity, and the runtime combines the accumulators into the result, in
 * call order, when the call ends.  The results add to what the result held
 * (set it to 0 first).
 *
 * Checked against sequential references in double: dot within
 * n eps sum |x_i y_i| and nrm2 within n eps ||x|| (worst-case bounds for n
 * terms summed in any order), amax exactly; a second dot too (its blocks may
 * run other variants: the scheduler is still calibrating them, and the
 * OpenMP variant sums in another order).  Prints how many amax blocks ran
 * at once: two at least where there are two CPU workers or more.  Usage:
 * dot [n] (default 1000003).
 */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "peppher.h"

/* amax's operator (amax.xml): the larger magnitude; 0 is its identity. */
void amax_identity(void *elem)
{
	*(double *)elem = 0;
}

void amax_combine(void *into, const void *from)
{
	*(double *)into = fmax(*(double *)into, *(const double *)from);
}

extern atomic_int amax_peak, amax_wait; /* amax/cpu/amax_cpu.c */

static int within(const char *what, double got, double want, double tol)
{
	int ok = fabs(got - want) <= tol;

	printf("%s: %.17g, reference %.17g (tolerance %.1e): %s\n", what, got, want, tol,
	       ok ? "correct" : "WRONG");
	return ok;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000003, ok = 1;

	if (n < 8) {
		fprintf(stderr, "usage: dot [n], n >= 8 (8 blocks)\n");
		return 2;
	}
	double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
	double d_ref = 0, d_abs = 0, sq = 0, a_ref = 0;
	unsigned s = 12345;

	if (!x || !y)
		return 1;
	for (int i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		x[i] = (double)(s >> 8) / (1u << 24) - 0.5;
		s = s * 1103515245u + 12345u;
		y[i] = (double)(s >> 8) / (1u << 24) - 0.5;
		d_ref += x[i] * y[i];
		d_abs += fabs(x[i] * y[i]);
		sq += x[i] * x[i];
		a_ref = fmax(a_ref, fabs(x[i]));
	}
	PEPPHER_INITIALIZE();

	double d = 0, d2 = 0, norm = 0, a = 0;

	dot(n, x, y, &d);
	dot(n, x, y, &d2);
	nrm2(n, x, &norm);
	/* blocks run at once where there are CPU workers to run them (not
	 * with one: PEPPHER_NCPU=1, or StarPU on 2 cores beside an OpenCL
	 * device), and wait there until two run at once */
	unsigned cpus = pph_worker_count_arch(PPH_ARCH_CPU);

	atomic_store(&amax_wait, cpus >= 2);
	amax(n, x, &a);
	atomic_store(&amax_wait, 0);
	PEPPHER_SHUTDOWN();

	ok &= within("dot", d, d_ref, n * DBL_EPSILON * d_abs);
	ok &= within("dot again", d2, d_ref, n * DBL_EPSILON * d_abs);
	ok &= within("nrm2", norm, sqrt(sq), n * DBL_EPSILON * sqrt(sq));
	ok &= within("amax", a, a_ref, 0);
	printf("amax: up to %d blocks ran at once on %u CPU worker%s\n", atomic_load(&amax_peak),
	       cpus, cpus == 1 ? "" : "s");
	ok &= atomic_load(&amax_peak) >= (cpus >= 2 ? 2 : 1);
	printf("dot: %s\n", ok ? "correct" : "WRONG");
	free(x);
	free(y);
	return !ok;
}
