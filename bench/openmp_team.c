/*
 * OpenMP teams: a compute-bound OPENMP variant run by libpeppher with a
 * team of 1 and of 2 CPU workers (eager gives a fork-join variant every
 * CPU worker: PEPPHER_NCPU=1 and 2), and the same function called under
 * plain libgomp with 1 and 2 threads.  Prints milliseconds per call and
 * the ratios team 2 / team 1 (speed-up, target >= 1.8 on 2 cores) and
 * team 2 / libgomp 2 threads (target within 10%).  Each figure is the best
 * of 5 rounds, the four configurations taking turns in each round.
 * PEPPHER_QUICK=1: one round.
 */
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define N 4096
#define ITERS 1500
#define CALLS 20

static float x[N];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ITERS steps of a recurrence per element: flops, no memory traffic */
static void work(float *v, int n, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
	for (int i = 0; i < n; i++) {
		float a = v[i];

		for (int k = 0; k < ITERS; k++)
			a = a * 0.999f + 0.001f;
		v[i] = a;
	}
}

/* the cores the OpenMP threads of the last team may run on, together
 * (libpeppher pins each to a core of its own: 2 for a team of 2) */
static int team_cores;

static void variant(void *buffers[], void *arg)
{
	int threads = pph_openmp_threads();
	cpu_set_t all;

	(void)buffers;
	(void)arg;
	work(x, N, threads);
	CPU_ZERO(&all);
#pragma omp parallel num_threads(threads)
	{
		cpu_set_t set;

		if (sched_getaffinity(0, sizeof(set), &set) == 0) {
#pragma omp critical
			CPU_OR(&all, &all, &set);
		}
	}
	team_cores = CPU_COUNT(&all);
}

static const struct pph_impl impls[] = { { PPH_ARCH_OPENMP, variant, "work_omp", 0 } };
static const struct pph_codelet cl = { "openmp_team_work", 1, impls, PPH_MODEL_DEFAULT };

/* ms per call under libpeppher with ncpu CPU workers (the team) */
static double run_peppher(unsigned ncpu)
{
	char n[16];
	double t0, t;
	int i;

	snprintf(n, sizeof(n), "%u", ncpu);
	setenv("PEPPHER_NCPU", n, 1);
	setenv("PEPPHER_SCHED", "eager", 1);
	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	if (pph_init() != 0)
		exit(1);
	if (pph_call_sync(&cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0) != 0) /* warm-up */
		exit(1);
	t0 = now_s();
	for (i = 0; i < CALLS; i++)
		if (pph_call_sync(&cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0) != 0)
			exit(1);
	t = now_s() - t0;
	pph_shutdown();
	return t * 1e3 / CALLS;
}

/* ms per call of the same function under plain libgomp */
static double run_gomp(int threads)
{
	double t0;
	int i;

	work(x, N, threads);
	t0 = now_s();
	for (i = 0; i < CALLS; i++)
		work(x, N, threads);
	return (now_s() - t0) * 1e3 / CALLS;
}

int main(void)
{
	int quick = getenv("PEPPHER_QUICK") && atoi(getenv("PEPPHER_QUICK"));
	int rounds = quick ? 1 : 5, r;
	double p1 = INFINITY, p2 = INFINITY, g1 = INFINITY, g2 = INFINITY;
	int cores2 = 0;

	for (r = 0; r < rounds; r++) {
		p1 = fmin(p1, run_peppher(1));
		g1 = fmin(g1, run_gomp(1));
		p2 = fmin(p2, run_peppher(2));
		cores2 = team_cores;
		g2 = fmin(g2, run_gomp(2));
	}
	printf("openmp_team: an OPENMP variant (%d elements x %d steps), ms per call, best of %d\n",
	       N, ITERS, rounds);
	printf("  libpeppher team of 1  %.3f\n  libpeppher team of 2  %.3f\n", p1, p2);
	printf("  libgomp 1 thread      %.3f\n  libgomp 2 threads     %.3f\n", g1, g2);
	printf("  speed-up team 2 / team 1        %.2f (target >= 1.8)\n", p1 / p2);
	printf("  team of 2 / libgomp 2 threads   %.2f (target <= 1.10)\n", p2 / g2);
	printf("  cores the OpenMP threads of a team of 2 may run on: %d\n", cores2);
	if (cores2 < 2) {
		printf("openmp_team: FAIL: the team's OpenMP threads share one core\n");
		return 1;
	}
	return 0;
}
