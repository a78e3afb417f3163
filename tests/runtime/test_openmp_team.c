/*
 * The OpenMP threads of a fork-join variant's team each run on a core of
 * their own: libpeppher pins the threads of a worker's team, one per
 * member's core.  Bound to the team's cores as a whole, a team of 2 often
 * ran both threads on one core (cfd's flux in `make evaluation`: as slow
 * as one thread, a process at a time).  The variant records, for each of
 * its threads, the cores it may run on; with 2 CPU workers, every call
 * runs a team of 2 whose threads are each bound to one core, not the same.
 * Twice, in two runtimes one after the other (the second pins again).
 * Then the threads pph_init starts: with 8 CPU workers and pph_conf's
 * openmp = 1, each team's leader starts its team's OpenMP threads there
 * (the whole team's 7, two teams of 4's 3 each, four teams of 2's 1
 * each: 17), none with openmp = 0, and they end with the runtime.
 * Skipped (77) with fewer than 2 cores, where workers cannot be bound, or
 * where OpenMP allows one thread.
 */
#include <dirent.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define CALLS 20 /* 10 in each runtime */

struct team_seen {
	int threads;
	int cores[2]; /* the one core each thread may run on; -1: several */
};

static struct team_seen seen[CALLS];
static int call;

/* The core a thread is bound to, or -1 if it may run on several. */
static int bound_core(void)
{
	cpu_set_t set;
	int c, core = -1;

	if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
		return -1;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			core = c;
	return core;
}

static void k_team(void *buffers[], void *arg)
{
	struct team_seen *s = &seen[call];

	(void)buffers;
	(void)arg;
	omp_set_num_threads(pph_openmp_threads());
#pragma omp parallel
	{
		int i = omp_get_thread_num();

		if (i < 2)
			s->cores[i] = bound_core();
#pragma omp single
		s->threads = omp_get_num_threads();
	}
}

/* Where a CPU variant's worker runs: its core, if workers are bound. */
static int worker_core = -2;

static void k_probe(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	worker_core = bound_core();
}

static const struct pph_impl probe_impls[] = {
	{ PPH_ARCH_CPU, k_probe, "probe", 0 },
};
static const struct pph_codelet probe_cl = { "worker_core", 1, probe_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl team_impls[] = {
	{ PPH_ARCH_OPENMP, k_team, "team", 0 },
};
static const struct pph_codelet team_cl = { "pinned_team", 1, team_impls, PPH_MODEL_DEFAULT };

/* Start a runtime of ncpu CPU workers, its OpenMP teams started as
 * openmp says (pph_conf); 0 on success. */
static int start(int ncpu, int openmp)
{
	struct pph_conf conf;
	int rc;

	pph_conf_init(&conf);
	conf.ncpu = ncpu;
	conf.nopencl = 0;
	conf.ncuda = 0;
	conf.openmp = openmp;
	if ((rc = pph_init_conf(&conf)) != 0)
		fprintf(stderr, "FAIL: pph_init_conf: %d\n", rc);
	return rc;
}

/* The threads of this process. */
static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The threads of this process once at most `expected` (threads that end
 * leave /proc a moment after they are joined or detached): waits up to
 * a second. */
static int settled_threads(int expected)
{
	struct timespec ms = { 0, 1000000 };
	int n, i;

	for (i = 0; (n = count_threads()) > expected && i < 1000; i++)
		nanosleep(&ms, NULL);
	return n;
}

/* pph_init with 8 CPU workers starts 17 OpenMP threads with openmp = 1,
 * none with 0; all end at pph_shutdown.  0 if so. */
static int check_started_threads(int openmp)
{
	int before = count_threads(), expected = before + 8 + (openmp ? 17 : 0), n, failed = 0;

	if (start(8, openmp) != 0)
		return 1;
	if ((n = count_threads()) != expected) {
		fprintf(stderr, "FAIL: openmp=%d: %d threads after pph_init, expected %d (%d before, 8 workers, %d OpenMP threads)\n",
			openmp, n, expected, before, openmp ? 17 : 0);
		failed = 1;
	}
	pph_shutdown();
	if ((n = settled_threads(before)) != before) {
		fprintf(stderr, "FAIL: openmp=%d: %d threads after pph_shutdown, %d before pph_init\n",
			openmp, n, before);
		failed = 1;
	}
	return failed;
}

int main(void)
{
	cpu_set_t all;
	int failed = 0, rc, run;

	if (sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) < 2) {
		printf("SKIP: fewer than 2 cores\n");
		return 77;
	}
	if (omp_get_thread_limit() < 2) {
		printf("SKIP: OpenMP allows one thread (OMP_THREAD_LIMIT)\n");
		return 77;
	}
	setenv("PEPPHER_SCHED", "eager", 1);
	for (run = 0; run < 2; run++) {
		if (start(2, -1) != 0)
			return 1;
		/* on a worker (an asynchronous call is not run in the caller's place) */
		if ((rc = pph_call_async(&probe_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0)) != 0) {
			fprintf(stderr, "FAIL: the probe's call: %d\n", rc);
			return 1;
		}
		pph_task_wait_all();
		for (; call < CALLS / 2 * (run + 1); call++)
			if ((rc = pph_call_sync(&team_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0)) != 0) {
				fprintf(stderr, "FAIL: call %d: %d\n", call, rc);
				failed = 1;
			}
		pph_shutdown();
	}
	if (omp_get_thread_limit() >= 32)
		failed |= check_started_threads(0) | check_started_threads(1);
	if (worker_core < 0) {
		printf("SKIP: the workers are not bound to cores here\n");
		return 77;
	}
	for (call = 0; call < CALLS; call++) {
		const struct team_seen *s = &seen[call];

		if (s->threads != 2 || s->cores[1] < 0 || s->cores[0] == s->cores[1]) {
			fprintf(stderr, "FAIL: call %d: a team of %d, its threads bound to cores %d and %d (-1: several)\n",
				call, s->threads, s->cores[0], s->cores[1]);
			failed = 1;
		}
	}
	if (!failed)
		printf("ok: %d calls in 2 runtimes, each on a team of 2 threads bound to cores %d and %d\n",
		       CALLS, seen[0].cores[0], seen[0].cores[1]);
	return failed;
}
