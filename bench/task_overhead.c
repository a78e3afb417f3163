/*
 * Task overhead: the time per task of 100,000 tiny tasks, in libpeppher,
 * StarPU 1.3 and OpenMP tasks (libgomp), run one after the other in this
 * process, with 1 and 2 workers.  Scenarios:
 *   empty      tasks with no data
 *   chain      every task reads and writes the same handle (a serial chain)
 *   readers    every task reads its own handle (no dependencies)
 * Prints microseconds per task and the ratios ours/StarPU and ours/libgomp,
 * each runtime's best of 5 rounds: the three take turns in each round, so
 * that a slow spell of the machine does not fall on one of them only, and
 * the best round is the one a slow spell spared (a shared virtual machine
 * has spells that even the median of 3 caught: doc/design-notes.md).
 * PEPPHER_QUICK=1 runs 10,000 tasks, one round.
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <peppher/runtime.h>
#include <starpu.h>

enum scenario { EMPTY, CHAIN, READERS, NSCENARIOS };
static const char *const scenario_names[] = { "empty", "chain", "readers" };

static unsigned ntasks = 100000;
static long *values; /* one per task for READERS, [0] for CHAIN */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- libpeppher ---- */

static void pph_kernel(void *buffers[], void *arg)
{
	(void)arg;
	if (buffers[0] && PPH_VARIABLE_PTR(buffers[0]))
		(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}

static void pph_empty(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static const struct pph_impl pph_impls[] = { { PPH_ARCH_CPU, pph_kernel, "k", 0 } };
static const struct pph_codelet pph_cl = { "overhead", 1, pph_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl pph_empty_impls[] = { { PPH_ARCH_CPU, pph_empty, "e", 0 } };
static const struct pph_codelet pph_empty_cl = { "overhead_empty", 1, pph_empty_impls, PPH_MODEL_DEFAULT };

static double run_peppher(enum scenario sc, unsigned nworkers)
{
	pph_data_handle *h = calloc(ntasks, sizeof(*h));
	char n[16];
	double t0, t;
	unsigned i;

	snprintf(n, sizeof(n), "%u", nworkers);
	setenv("PEPPHER_NCPU", n, 1);
	setenv("PEPPHER_SCHED", "eager", 0);
	setenv("PEPPHER_NOPENCL", "0", 1); /* CPU workers only, as StarPU's below */
	setenv("PEPPHER_NCUDA", "0", 1);
	if (pph_init() != 0)
		exit(1);
	if (sc == CHAIN)
		pph_variable_register(&h[0], &values[0], sizeof(long));
	if (sc == READERS)
		for (i = 0; i < ntasks; i++)
			pph_variable_register(&h[i], &values[i], sizeof(long));
	t0 = now_s();
	for (i = 0; i < ntasks; i++) {
		struct pph_task *task = pph_task_create(sc == EMPTY ? &pph_empty_cl : &pph_cl);

		if (sc == CHAIN)
			pph_task_add_buffer(task, h[0], PPH_RW);
		else if (sc == READERS)
			pph_task_add_buffer(task, h[i], PPH_R);
		pph_task_set_detached(task, 1);
		if (pph_task_submit(task) != 0)
			exit(1);
	}
	pph_task_wait_all();
	t = now_s() - t0;
	for (i = 0; i < ntasks; i++)
		pph_data_unregister(h[i]);
	pph_shutdown();
	free(h);
	return t;
}

/* ---- StarPU ---- */

static void starpu_kernel(void *buffers[], void *arg)
{
	(void)arg;
	(*(long *)STARPU_VARIABLE_GET_PTR(buffers[0]))++;
}

static void starpu_empty(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static double run_starpu(enum scenario sc, unsigned nworkers)
{
	starpu_data_handle_t *h = calloc(ntasks, sizeof(*h));
	struct starpu_codelet cl;
	struct starpu_conf conf;
	double t0, t;
	unsigned i;

	starpu_conf_init(&conf);
	conf.ncpus = (int)nworkers;
	conf.ncuda = 0;
	conf.nopencl = 0;
	if (starpu_init(&conf) != 0)
		exit(1);
	starpu_codelet_init(&cl);
	cl.cpu_funcs[0] = sc == EMPTY ? starpu_empty : starpu_kernel;
	cl.nbuffers = sc == EMPTY ? 0 : 1;
	cl.modes[0] = sc == CHAIN ? STARPU_RW : STARPU_R;
	if (sc == CHAIN)
		starpu_variable_data_register(&h[0], STARPU_MAIN_RAM,
					      (uintptr_t)&values[0], sizeof(long));
	if (sc == READERS)
		for (i = 0; i < ntasks; i++)
			starpu_variable_data_register(&h[i], STARPU_MAIN_RAM,
						      (uintptr_t)&values[i], sizeof(long));
	t0 = now_s();
	for (i = 0; i < ntasks; i++) {
		struct starpu_task *task = starpu_task_create();

		task->cl = &cl;
		if (sc != EMPTY)
			task->handles[0] = h[sc == CHAIN ? 0 : i];
		if (starpu_task_submit(task) != 0)
			exit(1);
	}
	starpu_task_wait_for_all();
	t = now_s() - t0;
	for (i = 0; i < ntasks; i++)
		if (h[i])
			starpu_data_unregister(h[i]);
	starpu_shutdown();
	free(h);
	return t;
}

/* ---- OpenMP tasks ---- */

/* Task bodies the compiler cannot remove, as cheap as our kernels. */
static __attribute__((noinline)) void gomp_empty(void)
{
	__asm__ volatile("");
}

static __attribute__((noinline)) void gomp_read(const long *v)
{
	__asm__ volatile("" : : "r"(*v));
}

/* Tasks libgomp ran on the thread that created them, in the last run: it
 * runs a task at once, undeferred, when its queue holds more than 64 per
 * thread.  Written by that thread only. */
static unsigned long gomp_on_creator;

static double run_gomp(enum scenario sc, unsigned nworkers)
{
	double t0 = now_s();
	unsigned i;
	int creator = -1;

	gomp_on_creator = 0;
#pragma omp parallel num_threads(nworkers)
#pragma omp single
	{
		creator = omp_get_thread_num();
		for (i = 0; i < ntasks; i++) {
			if (sc == EMPTY) {
#pragma omp task
				{
					if (omp_get_thread_num() == creator)
						gomp_on_creator++;
					gomp_empty();
				}
			} else if (sc == CHAIN) {
#pragma omp task depend(inout: values[0])
				{
					if (omp_get_thread_num() == creator)
						gomp_on_creator++;
					values[0]++;
				}
			} else {
				long *v = &values[i];
#pragma omp task depend(in: v[0])
				{
					if (omp_get_thread_num() == creator)
						gomp_on_creator++;
					gomp_read(v);
				}
			}
		}
	}
	return now_s() - t0;
}

static double best_of(const double *v, unsigned n)
{
	double best = v[0];
	unsigned i;

	for (i = 1; i < n; i++)
		if (v[i] < best)
			best = v[i];
	return best;
}

int main(void)
{
	const char *quick = getenv("PEPPHER_QUICK");
	unsigned w, r, rounds = 5;
	int sc;

	if (quick && *quick == '1') {
		ntasks = 10000;
		rounds = 1;
	}
	values = calloc(ntasks, sizeof(long));
	setenv("STARPU_SILENT", "1", 0);
	printf("task_overhead: %u tasks, microseconds per task (submit to completion),\n"
	       "best of %u rounds\n\n", ntasks, rounds);
	printf("%-8s %7s %10s %10s %10s %12s %12s %9s\n", "scenario", "workers",
	       "peppher", "starpu", "libgomp", "pph/starpu", "pph/libgomp", "creator");
	for (sc = 0; sc < NSCENARIOS; sc++)
		for (w = 1; w <= 2; w++) {
			double pr[5], sr[5], gr[5], p, s, g;

			for (r = 0; r < rounds; r++) {
				pr[r] = run_peppher((enum scenario)sc, w) * 1e6 / ntasks;
				sr[r] = run_starpu((enum scenario)sc, w) * 1e6 / ntasks;
				gr[r] = run_gomp((enum scenario)sc, w) * 1e6 / ntasks;
			}
			p = best_of(pr, rounds);
			s = best_of(sr, rounds);
			g = best_of(gr, rounds);

			printf("%-8s %7u %10.3f %10.3f %10.3f %12.2f %12.2f %8.0f%%%s\n",
			       scenario_names[sc], w, p, s, g, p / s, p / g,
			       100.0 * (double)gomp_on_creator / ntasks, w == 1 ? " *" : "");
		}
	printf("\ntargets: pph/starpu <= 0.25, pph/libgomp <= 2\n");
	printf("creator: the share of tasks libgomp ran on the thread creating them (its\n"
	       "  last round): beyond 64 queued tasks per thread it runs a new task at once;\n"
	       "  so does our runtime beyond 64 pending tasks per worker, and for a task whose\n"
	       "  model predicts less than handing it over costs (PEPPHER_TINY_US), when it is\n"
	       "  ready and has one CPU variant\n");
	printf("* with one thread libgomp runs each task at once where it is created (no queue,\n"
	       "  no second thread), so that ratio compares a runtime with a function call\n");
	free(values);
	return 0;
}
