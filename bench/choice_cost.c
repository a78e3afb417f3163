/*
 * The cost of dynamic selection per call: synchronous calls of a 5 us
 * kernel on a vector, through a codelet with one CPU variant and through
 * one with four (two CPU variants, a fork-join one and an OpenCL one, the
 * three others 3 times slower, so that dmda settles on the same variant
 * as the single-variant codelet).  After an untimed calibration pass, the
 * two take turns, 2,000 calls each, 5 rounds; prints each one's best round
 * in microseconds per call, the difference (what weighing every worker,
 * variant and team size costs the caller) and the ratio four / one.
 * With PEPPHER_NCPU=16 the choice spans 16 CPU workers and their team
 * sizes, as on a 16-core machine (on fewer cores the kernel times stay
 * the same: the calls are synchronous, one runs at a time).
 * Target: a difference under 1 us with 16 CPU workers.
 * PEPPHER_QUICK=1 makes 200 calls a round.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void spin_us(double us)
{
	double end = now_us() + us;

	while (now_us() < end)
		;
}

static void k_fast(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	spin_us(5);
}

static void k_slow(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	spin_us(15);
}

static const struct pph_impl one_impls[] = { { PPH_ARCH_CPU, k_fast, "cost_fast", 0 } };
static const struct pph_impl four_impls[] = {
	{ PPH_ARCH_CPU, k_fast, "cost_fast", 0 },
	{ PPH_ARCH_CPU, k_slow, "cost_slow", 0 },
	{ PPH_ARCH_OPENMP, k_slow, "cost_omp", 0 },
	{ PPH_ARCH_OPENCL, k_slow, "cost_ocl", 0 },
};
static const struct pph_codelet one_cl = { "bench_cost_one", 1, one_impls, PPH_MODEL_DEFAULT };
static const struct pph_codelet four_cl = { "bench_cost_four", 4, four_impls, PPH_MODEL_DEFAULT };

/* Microseconds per call of n calls of cl on h. */
static double calls(const struct pph_codelet *cl, pph_data_handle h, int n)
{
	enum pph_access mode = PPH_RW;
	double t0 = now_us();
	int i;

	for (i = 0; i < n; i++)
		if (pph_call_sync(cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0) != 0) {
			fprintf(stderr, "choice_cost: a call failed\n");
			exit(1);
		}
	return (now_us() - t0) / n;
}

int main(void)
{
	static float v[1024];
	const char *quick = getenv("PEPPHER_QUICK");
	int n = quick && *quick == '1' ? 200 : 2000, round;
	double one = 1e30, four = 1e30, t;
	pph_data_handle h;

	if (pph_init() != 0 || pph_vector_register(&h, v, 1024, sizeof(float)) != 0) {
		fprintf(stderr, "choice_cost: no runtime\n");
		return 1;
	}
	/* calibration: every variant, team size and device tried */
	calls(&one_cl, h, n);
	calls(&four_cl, h, n);
	for (round = 0; round < 5; round++) {
		if ((t = calls(&one_cl, h, n)) < one)
			one = t;
		if ((t = calls(&four_cl, h, n)) < four)
			four = t;
	}
	printf("choice_cost: %u CPU workers, %u OpenCL: a call of a 5 us kernel, one variant "
	       "%.2f us, four %.2f us: +%.2f us a call (target < 1 with 16 CPU workers), "
	       "ratio %.3f\n",
	       pph_worker_count_arch(PPH_ARCH_CPU), pph_worker_count_arch(PPH_ARCH_OPENCL), one,
	       four, four - one, four / one);
	pph_data_unregister(h);
	pph_shutdown();
	return 0;
}
