/*
 * Nested components (workers.c, pph__worker_help_until): a variant that
 * calls other components synchronously, and contributes to a reduction
 * whose result it reads, at depth 3, with 1 and 2 CPU
 * workers under every scheduler.  A worker that waits inside a variant
 * runs ready work itself; before, one worker under dmda and eager (and
 * two under dmda) waited forever for a task only a waiting worker could
 * run.  Each configuration runs in a child with an alarm, so that a hang
 * fails the test instead of stopping make check, and checks the results.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "testutil.h"

#define N 64
#define OUTER 8	  /* outer calls in flight at once */
#define INNER 3	  /* middle calls per outer call */


/* innermost: x[i] += 1; a CPU and an OPENMP variant (fork-join teams take
 * the workers' team locks: the waiting worker must have let its go) */
static void inc_cpu(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] += 1;
}

static const struct pph_impl inc_impls[] = {
	{ PPH_ARCH_CPU, inc_cpu, "nested_inc_cpu", 0 },
	{ PPH_ARCH_OPENMP, inc_cpu, "nested_inc_omp", 0 },
};
static const struct pph_codelet inc_cl = { "nested_inc", 2, inc_impls, PPH_MODEL_DEFAULT };

/* What a composed entry wrapper does for raw pointers: register, call
 * synchronously, unregister. */
static int call_on(const struct pph_codelet *cl, int *x, size_t n)
{
	static const enum pph_access rw = PPH_RW;
	pph_data_handle h;
	int rc = pph_vector_register(&h, x, n, sizeof(int));

	if (rc == 0)
		rc = pph_call_sync(cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
	pph_data_unregister(h);
	return rc;
}

static int nested_failures; /* written by workers: atomically */

/* a contribution: the sum of x into a reduction's accumulator */
static void add_sum_cpu(void *buffers[], void *arg)
{
	const int *x = PPH_VECTOR_PTR(buffers[0]);
	long *sum = PPH_VARIABLE_PTR(buffers[1]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		*sum += x[i];
}

static const struct pph_impl add_sum_impls[] = { { PPH_ARCH_CPU, add_sum_cpu, "nested_sum", 0 } };
static const struct pph_codelet add_sum_cl = { "nested_sum", 1, add_sum_impls, PPH_MODEL_DEFAULT };

/* Two contributions to a sum of x, then a host read: the combine task
 * runs on a worker, maybe only on the one waiting here.  Returns 0 when
 * the sum is right. */
static int nested_reduction(const int *x, size_t n)
{
	static const enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	long sum = 0, expect = 0;
	pph_data_handle h[2];
	size_t i;
	int rc = pph_vector_register(&h[0], (void *)x, n, sizeof(int));

	if (rc == 0 && (rc = pph_variable_register(&h[1], &sum, sizeof(sum))) == 0) {
		rc = pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM,
									 PPH_TYPE_LONG));
		if (rc == 0)
			rc = pph_call_async(&add_sum_cl, PPH_ALL_IMPLS, 2, h, modes, NULL, 0);
		if (rc == 0)
			rc = pph_call_async(&add_sum_cl, PPH_ALL_IMPLS, 2, h, modes, NULL, 0);
		if (rc == 0)
			rc = pph_data_acquire(h[1], PPH_R);
		pph_data_unregister(h[1]);
	}
	pph_data_unregister(h[0]);
	for (i = 0; i < n; i++)
		expect += 2 * x[i];
	return rc || sum != expect;
}

/* middle: two nested calls of inc on its data, a host access of a handle
 * a detached task and an asynchronous split call write (a wait on tasks,
 * not a call: the split's scatter, blocks and gather run on a worker,
 * maybe only on the one waiting here), and a reduction */
static void middle_cpu(void *buffers[], void *arg)
{
	static const enum pph_access rw = PPH_RW;
	static const int two = 2;
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t n = PPH_VECTOR_N(buffers[0]);
	pph_data_handle h;

	(void)arg;
	if (call_on(&inc_cl, x, n) != 0 || call_on(&inc_cl, x, n) != 0)
		__atomic_add_fetch(&nested_failures, 1, __ATOMIC_RELAXED);
	if (pph_vector_register(&h, x, n, sizeof(int)) != 0 ||
	    pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0) != 0 ||
	    pph_call_partitioned_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, &two, NULL, 0) != 0 ||
	    pph_data_acquire(h, PPH_R) != 0)
		__atomic_add_fetch(&nested_failures, 1, __ATOMIC_RELAXED);
	pph_data_unregister(h);
	if (nested_reduction(x, n) != 0)
		__atomic_add_fetch(&nested_failures, 1, __ATOMIC_RELAXED);
}

static const struct pph_impl middle_impls[] = { { PPH_ARCH_CPU, middle_cpu, "nested_middle", 0 } };
static const struct pph_codelet middle_cl = { "nested_middle", 1, middle_impls, PPH_MODEL_DEFAULT };

/* outer: INNER middle calls, each adding 4 */
static void outer_cpu(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]), k;

	(void)arg;
	for (k = 0; k < INNER; k++)
		if (call_on(&middle_cl, x, PPH_VECTOR_N(buffers[0])) != 0)
			__atomic_add_fetch(&nested_failures, 1, __ATOMIC_RELAXED);
}

static const struct pph_impl outer_impls[] = { { PPH_ARCH_CPU, outer_cpu, "nested_outer", 0 } };
static const struct pph_codelet outer_cl = { "nested_outer", 1, outer_impls, PPH_MODEL_DEFAULT };

/* OUTER outer calls in flight at once, then one synchronous; returns the
 * number of wrong results (0 is right), in a child process. */
static int run_nested(void)
{
	static int x[OUTER + 1][N];
	static const enum pph_access rw = PPH_RW;
	pph_data_handle h[OUTER];
	int k, i, wrong = 0;

	if (pph_init() != 0)
		return 100;
	for (k = 0; k < OUTER; k++) {
		for (i = 0; i < N; i++)
			x[k][i] = i;
		pph_vector_register(&h[k], x[k], N, sizeof(int));
		if (pph_call_async(&outer_cl, PPH_ALL_IMPLS, 1, &h[k], &rw, NULL, 0) != 0)
			wrong++;
	}
	for (i = 0; i < N; i++)
		x[OUTER][i] = i;
	if (call_on(&outer_cl, x[OUTER], N) != 0)
		wrong++;
	for (k = 0; k < OUTER; k++)
		pph_data_unregister(h[k]);
	pph_shutdown();
	for (k = 0; k <= OUTER; k++)
		for (i = 0; i < N; i++)
			wrong += x[k][i] != i + 4 * INNER;
	return wrong + nested_failures;
}

/* Run run_nested with ncpu workers under sched; 0 when right in time. */
static int nested_in_child(const char *ncpu, const char *sched)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		setenv("PEPPHER_NCPU", ncpu, 1);
		setenv("PEPPHER_SCHED", sched, 1);
		alarm(30); /* a hang fails the test */
		_exit(run_nested() ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "nested calls, %s worker(s), %s: %s\n", ncpu, sched,
			WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? "hung" :
			"wrong results");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * A variant that would wait for its own task: a host access to the data
 * its task holds, a synchronous call on it, a wait for a task on it.  Each
 * is refused (-EDEADLK; they hung); reads of data the task only reads are
 * not.  A task submitted inside runs once the variant's task ended.
 */
static int self_waits;
static struct pph_task *left_behind;

static void self_wait_cpu(void *buffers[], void *arg)
{
	static const enum pph_access rw = PPH_RW, r = PPH_R;
	pph_data_handle h = *(pph_data_handle *)arg, other = *((pph_data_handle *)arg + 1);

	(void)buffers;
	self_waits += pph_data_acquire(h, PPH_R) == -EDEADLK;
	self_waits += pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0) == -EDEADLK;
	left_behind = pph_task_create(&inc_cl);
	pph_task_add_buffer(left_behind, h, PPH_RW);
	self_waits += pph_task_submit(left_behind) == 0;
	self_waits += pph_task_wait(left_behind) == -EDEADLK;
	/* read by both: no wait for the task (inc_cl's variants write
	 * through it anyway: y is not checked) */
	self_waits += pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &other, &r, NULL, 0) == 0;
}

static const struct pph_impl self_wait_impls[] = { { PPH_ARCH_CPU, self_wait_cpu, "self_wait", 0 } };
static const struct pph_codelet self_wait_cl = { "nested_self_wait", 1, self_wait_impls,
						 PPH_MODEL_DEFAULT };

static int run_self_wait(void)
{
	int x[N] = { 0 }, y[N] = { 0 };
	pph_data_handle h[2];
	static const enum pph_access modes[2] = { PPH_RW, PPH_R };
	int rc;

	if (pph_init() != 0)
		return 100;
	pph_vector_register(&h[0], x, N, sizeof(int));
	pph_vector_register(&h[1], y, N, sizeof(int));
	rc = pph_call_sync(&self_wait_cl, PPH_ALL_IMPLS, 2, h, modes, h, sizeof(h));
	pph_task_destroy(left_behind); /* runs now */
	pph_data_unregister(h[0]);
	pph_data_unregister(h[1]);
	pph_shutdown();
	return rc != 0 || self_waits != 5 || x[0] != 1;
}

static void test_self_wait(void)
{
	static const char *const ncpu[] = { "1", "2" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			setenv("PEPPHER_NCPU", ncpu[i], 1);
			alarm(30); /* a hang fails the test */
			_exit(run_self_wait());
		}
		CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &status, 0) == pid);
		CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

#ifdef _OPENMP
/*
 * A fork-join variant whose OpenMP threads call a component: each thread
 * of the team calls `half' on its own part of the data, synchronously on
 * a raw pointer, then asynchronously and waits for the task, then
 * asynchronously and reads the result.  The team's OpenMP threads other
 * than its leader are no workers: with a team of 2 or more, their calls'
 * tasks went to a member of the team, whose worker waited for the core
 * the team held while the team waited for the task (hung every time,
 * under every scheduler).  Teams of 2 and 4 (eager runs the whole team).
 */
#define TEAM_N 4096
#define TEAM_CALLS 8

static int team_max; /* the largest team a call of `whole' ran on */

static void half_cpu(void *buffers[], void *arg)
{
	float *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] += 1;
}

static const struct pph_impl half_impls[] = { { PPH_ARCH_CPU, half_cpu, "nested_half_cpu", 0 } };
static const struct pph_codelet half_cl = { "nested_half", 1, half_impls, PPH_MODEL_DEFAULT };

/* What one OpenMP thread does with its part: three calls of half. */
static int half_thrice(float *x, size_t n)
{
	static const enum pph_access rw = PPH_RW;
	struct pph_task *t;
	pph_data_handle h;
	int rc = pph_vector_register(&h, x, n, sizeof(float));

	if (rc)
		return rc;
	rc = pph_call_sync(&half_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
	if (rc == 0 && !(t = pph_task_create(&half_cl)))
		rc = -ENOMEM;
	if (rc == 0) {
		pph_task_add_buffer(t, h, PPH_RW);
		rc = pph_task_submit(t);
		if (rc == 0)
			rc = pph_task_wait(t);
		pph_task_destroy(t);
	}
	if (rc == 0)
		rc = pph_call_async(&half_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
	if (rc == 0)
		rc = pph_data_acquire(h, PPH_R);
	pph_data_unregister(h);
	return rc;
}

static void whole_omp(void *buffers[], void *arg)
{
	float *x = PPH_VECTOR_PTR(buffers[0]);
	size_t n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	omp_set_num_threads(pph_openmp_threads());
#pragma omp parallel
	{
		size_t k = (size_t)omp_get_thread_num(), m = (size_t)omp_get_num_threads();
		size_t lo = n * k / m, hi = n * (k + 1) / m;

#pragma omp single
		if (omp_get_num_threads() > team_max)
			team_max = omp_get_num_threads();
		if (hi > lo && half_thrice(x + lo, hi - lo) != 0)
			__atomic_add_fetch(&nested_failures, 1, __ATOMIC_RELAXED);
	}
}

static const struct pph_impl whole_impls[] = { { PPH_ARCH_OPENMP, whole_omp, "nested_whole_omp", 0 } };
static const struct pph_codelet whole_cl = { "nested_whole", 1, whole_impls, PPH_MODEL_DEFAULT };

/* TEAM_CALLS synchronous calls of whole; 0 when right and run on a team
 * of several threads at least once. */
static int run_team_calls(void)
{
	static float x[TEAM_N];
	static const enum pph_access rw = PPH_RW;
	int k, i, wrong = 0;

	if (pph_init() != 0)
		return 100;
	for (k = 0; k < TEAM_CALLS; k++) {
		pph_data_handle h;

		if (pph_vector_register(&h, x, TEAM_N, sizeof(float)) != 0 ||
		    pph_call_sync(&whole_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0) != 0)
			wrong++;
		pph_data_unregister(h);
	}
	pph_shutdown();
	for (i = 0; i < TEAM_N; i++)
		wrong += x[i] != 3.0f * TEAM_CALLS;
	if (team_max < 2) {
		fprintf(stderr, "no call ran on a team of several threads\n");
		wrong++;
	}
	return wrong + nested_failures;
}

static int team_in_child(const char *ncpu, const char *sched)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		setenv("PEPPHER_NCPU", ncpu, 1);
		setenv("PEPPHER_SCHED", sched, 1);
		alarm(30); /* a hang fails the test */
		_exit(run_team_calls() ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "calls from a team's OpenMP threads, %s worker(s), %s: %s\n", ncpu,
			sched, WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? "hung" :
			"wrong results");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_team_calls(void)
{
	static const char *const ncpu[] = { "2", "4" }, *const sched[] = { "dmda", "eager", "ws" };
	unsigned i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			CU_ASSERT_EQUAL(team_in_child(ncpu[i], sched[j]), 0);
}
#endif

static void test_dmda_1(void) { CU_ASSERT_EQUAL(nested_in_child("1", "dmda"), 0); }
static void test_dmda_2(void) { CU_ASSERT_EQUAL(nested_in_child("2", "dmda"), 0); }
static void test_eager_1(void) { CU_ASSERT_EQUAL(nested_in_child("1", "eager"), 0); }
static void test_eager_2(void) { CU_ASSERT_EQUAL(nested_in_child("2", "eager"), 0); }
static void test_ws_1(void) { CU_ASSERT_EQUAL(nested_in_child("1", "ws"), 0); }
static void test_ws_2(void) { CU_ASSERT_EQUAL(nested_in_child("2", "ws"), 0); }

int main(void)
{
	CU_pSuite s;
	int failed;

	if (!test_home_begin("nested"))
		return 1;
	/* CPU workers only: what is tested is how they wait */
	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("nested components", NULL, NULL);
	CU_add_test(s, "1 worker, dmda", test_dmda_1);
	CU_add_test(s, "2 workers, dmda", test_dmda_2);
	CU_add_test(s, "1 worker, eager", test_eager_1);
	CU_add_test(s, "2 workers, eager", test_eager_2);
	CU_add_test(s, "1 worker, ws", test_ws_1);
	CU_add_test(s, "2 workers, ws", test_ws_2);
	CU_add_test(s, "a variant waiting for its own task is refused", test_self_wait);
#ifdef _OPENMP
	CU_add_test(s, "a team's OpenMP threads call components, teams of 2 and 4",
		    test_team_calls);
#endif
	failed = test_run_registry();
	if (test_home_end() != 0)
		failed = 1;
	return failed;
}
