/*
 * What every evaluation application shares and no component needs: the
 * problem size from the command line, a clock, a reproducible random
 * generator for the input generators, and result comparisons.  Header-only,
 * so that the composed program and its direct version include the same code.
 *
 * Each main starts the runtime first, then generates its input, as an
 * application starts it: the input is then as warm in the caches at the
 * first timed call whichever devices the program starts.  Started between
 * the two, the OpenCL platform (PoCL and LLVM, 70 MB) evicted the input of
 * the programs that load it: nw's kernel took 9 % more CPU time at 1024 in
 * those (perf, 40 runs each), 10 % more time at 256, where the CPU-only
 * program, which loads no OpenCL platform, kept its input warm.
 */
#ifndef EVAL_H
#define EVAL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* argv[1]: the problem size ("quick" or absent: quick, the size make check runs) */
static inline int eval_size(int argc, char **argv, int quick)
{
	if (argc < 2 || strcmp(argv[1], "quick") == 0)
		return quick;
	return atoi(argv[1]) > 0 ? atoi(argv[1]) : quick;
}

static inline double eval_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a 64-bit LCG (Knuth's MMIX constants): the same inputs on every machine */
struct eval_rng {
	unsigned long long s;
};

static inline unsigned eval_rand(struct eval_rng *r)
{
	r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(r->s >> 33);
}

/* uniform in [0, 1) */
static inline double eval_uniform(struct eval_rng *r)
{
	return (double)eval_rand(r) / 2147483648.0;
}

/* elements of a and b that differ (exact) */
static inline long eval_diff_int(const int *a, const int *b, long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += a[i] != b[i];
	return bad;
}

/* elements where |a - b| > tol * max(1, |b|) */
static inline long eval_diff_float(const float *a, const float *b, long n, double tol)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += !(fabs((double)a[i] - b[i]) <= tol * fmax(1.0, fabs((double)b[i])));
	return bad;
}

static inline long eval_diff_double(const double *a, const double *b, long n, double tol)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += !(fabs(a[i] - b[i]) <= tol * fmax(1.0, fabs(b[i])));
	return bad;
}

/* the line the tests and make evaluation read */
static inline int eval_report(const char *app, int size, double seconds, long bad)
{
	printf("%s: size %d: %.6f s: %s\n", app, size, seconds, bad ? "WRONG" : "correct");
	if (bad)
		printf("%s: %ld elements differ from the sequential reference\n", app, bad);
	return bad != 0;
}

#endif
