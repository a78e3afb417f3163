/*
 * Locality: a chain of 10,000 asynchronous calls on one 1,000-float
 * pph_vector (each reads and writes it), as generated code makes them,
 * under dmda with 1 and 2 CPU workers.  A chain has no parallelism: with
 * 2 workers it should cost what it costs with 1, not hop between the
 * workers' caches.  Prints microseconds per call with 1 and 2 workers and
 * their ratio, each the best of 5 rounds (the two taking turns); exits 1
 * when 2 workers cost more than 1.25x one (PEPPHER_QUICK=1: 1 round, no
 * verdict).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <peppher/containers.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define N 1000
#define CALLS 10000

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

	(void)arg;
	for (i = 0; i < n; i++)
		x[i] = x[i] * 0.5f + 1.0f;
}

static const struct pph_impl impls[] = { { PPH_ARCH_CPU, step, "step_cpu", 0 } };
static const struct pph_codelet cl = { "locality_step", 1, impls, PPH_MODEL_DEFAULT };

/* us per call with nworkers CPU workers */
static double run(unsigned nworkers)
{
	static const enum pph_access rw = PPH_RW;
	char n[16];
	pph_vector *v;
	double t0, t;
	unsigned i;

	snprintf(n, sizeof(n), "%u", nworkers);
	setenv("PEPPHER_NCPU", n, 1);
	setenv("PEPPHER_SCHED", "dmda", 0);
	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	if (pph_init() != 0 || !(v = pph_vector_create_float(N)))
		exit(1);
	for (i = 0; i < N; i++)
		PPH_VECTOR_SET(v, float, i, 1.0f);
	/* calibrate first: the chain measured is the steady state */
	for (i = 0; i < 200; i++)
		if (pph_call_async(&cl, ~0u, 1, &v->c.handle, &rw, NULL, 0) != 0)
			exit(1);
	pph_task_wait_all();
	t0 = now_s();
	for (i = 0; i < CALLS; i++)
		if (pph_call_async(&cl, ~0u, 1, &v->c.handle, &rw, NULL, 0) != 0)
			exit(1);
	pph_task_wait_all();
	t = now_s() - t0;
	if (PPH_VECTOR_GET(v, float, 0) != 2.0f) { /* the fixed point of x/2 + 1 */
		fprintf(stderr, "locality: wrong result %g\n", PPH_VECTOR_GET(v, float, 0));
		exit(1);
	}
	pph_vector_destroy(v);
	pph_shutdown();
	return t * 1e6 / CALLS;
}

int main(void)
{
	int quick = getenv("PEPPHER_QUICK") && atoi(getenv("PEPPHER_QUICK"));
	unsigned rounds = quick ? 1 : 5, r;
	double best1 = 1e30, best2 = 1e30;

	for (r = 0; r < rounds; r++) {
		double a = run(1), b = run(2);

		best1 = a < best1 ? a : best1;
		best2 = b < best2 ? b : best2;
	}
	printf("locality: chain of %d calls on a %d-float vector, dmda, best of %u\n", CALLS, N,
	       rounds);
	printf("  1 worker   %.2f us/call\n  2 workers  %.2f us/call\n  ratio 2/1  %.2f\n", best1,
	       best2, best2 / best1);
	if (!quick && best2 > 1.25 * best1) {
		printf("locality: FAIL: 2 workers cost more than 1.25x one\n");
		return 1;
	}
	return 0;
}
