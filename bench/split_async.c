/*
 * Split calls on containers, synchronous (pph_call_partitioned, the call
 * waits for its blocks' gather) against asynchronous
 * (pph_call_partitioned_async, what entry wrappers make where every
 * pointer is a container): 400 steps, each a split call on each of two
 * independent pph_vectors of N floats (the argument; 65536 by default:
 * `split_async 1024` for tiny calls), one block per CPU worker, under
 * dmda with the CPU workers only.  Asynchronous, one vector's blocks run
 * while the other's are being gathered and the caller submits the next
 * step.  Prints microseconds per step of each and their ratio, each the
 * best of 5 rounds (the two taking turns), and checks both results; exits
 * 1 when the asynchronous calls are slower than 1.1x the synchronous ones
 * (PEPPHER_QUICK=1: 1 round, no verdict).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <peppher/containers.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define STEPS 400

static size_t N = 64 * 1024;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void step(void *buffers[], void *arg)
{
	float *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);
	int k;

	(void)arg;
	for (k = 0; k < 4; k++) /* some work per element: about 0.1 ms a block */
		for (i = 0; i < n; i++)
			x[i] = x[i] * 0.5f + 1.0f;
}

static const struct pph_impl impls[] = { { PPH_ARCH_CPU, step, "split_step_cpu", 0 } };
static const struct pph_codelet cl = { "split_async_step", 1, impls, PPH_MODEL_DEFAULT };

/* us per step, the calls asynchronous or not; exits where a result is wrong */
static double run(int async)
{
	static const enum pph_access rw = PPH_RW;
	static const int parts = 0; /* one block per worker */
	pph_vector *v[2];
	pph_data_handle h;
	double t0, t;
	unsigned s, i, j;
	int rc = 0;

	for (j = 0; j < 2; j++) {
		if (!(v[j] = pph_vector_create_float(N)))
			exit(1);
		for (i = 0; i < N; i++)
			PPH_VECTOR_SET(v[j], float, i, 3.0f);
	}
	t0 = now_s();
	for (s = 0; s < STEPS && rc == 0; s++)
		for (j = 0; j < 2 && rc == 0; j++) {
			h = pph_container_use(&v[j]->c, PPH_RW); /* as entry wrappers do */
			rc = async ? pph_call_partitioned_async(&cl, PPH_ALL_IMPLS, 1, &h, &rw, &parts,
								NULL, 0) :
				     pph_call_partitioned(&cl, PPH_ALL_IMPLS, 1, &h, &rw, &parts, NULL,
							  0);
		}
	pph_task_wait_all();
	t = now_s() - t0;
	/* x -> x / 2 + 1, four times a call, from 3: 2 + 1/2^(4 STEPS) */
	for (j = 0; j < 2; j++) {
		for (i = 0; rc == 0 && i < N; i++)
			if (PPH_VECTOR_GET(v[j], float, i) != 2.0f)
				rc = -1;
		pph_vector_destroy(v[j]);
	}
	if (rc) {
		fprintf(stderr, "split_async: %s calls: wrong result or call failed (%d)\n",
			async ? "asynchronous" : "synchronous", rc);
		exit(1);
	}
	return t / STEPS * 1e6;
}

int main(int argc, char **argv)
{
	int quick = getenv("PEPPHER_QUICK") && atoi(getenv("PEPPHER_QUICK"));
	int rounds = quick ? 1 : 5, r;
	double sync_us = 1e30, async_us = 1e30, us;
	unsigned ncpu;

	if (argc > 1 && (N = strtoul(argv[1], NULL, 10)) < 2) {
		fprintf(stderr, "usage: split_async [N >= 2]\n");
		return 2;
	}

	setenv("PEPPHER_SCHED", "dmda", 0);
	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	if (pph_init() != 0)
		return 1;
	ncpu = pph_worker_count_arch(PPH_ARCH_CPU);
	run(0); /* calibrates the model: both then start calibrated */
	for (r = 0; r < rounds; r++) {
		if ((us = run(0)) < sync_us)
			sync_us = us;
		if ((us = run(1)) < async_us)
			async_us = us;
	}
	pph_shutdown();
	printf("split calls on containers, 2 vectors x %zu floats, %u CPU workers: synchronous %.1f us a step, asynchronous %.1f us; ratio %.2f (best of %d)\n",
	       N, ncpu, sync_us, async_us, async_us / sync_us, rounds);
	if (!quick && async_us > 1.1 * sync_us) {
		printf("split_async: asynchronous split calls slower than 1.1x synchronous ones\n");
		return 1;
	}
	return 0;
}
