/* Unit tests of runtime/submit.c: tasks run at submission. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "internal.h"
#include "suites.h"
#include "testutil.h"

/* Both workers held by a task each, then 200 ready tasks: beyond 64
 * pending tasks per worker the application thread runs them itself, only
 * those with one CPU variant, and not at all with PEPPHER_UNDEFERRED=0. */
static atomic_int holds_in, hold_open;

static void k_hold(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&holds_in, 1);
	while (!atomic_load(&hold_open))
		sched_yield();
}

static const struct pph_impl hold_impls[] = { { PPH_ARCH_CPU, k_hold, "hold", 0 } };
static const struct pph_codelet hold_cl = { "hold", 1, hold_impls, PPH_MODEL_DEFAULT };

static void k_bump(void *buffers[], void *arg)
{
	(void)arg;
	(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}

static const struct pph_impl bump_impls[] = {
	{ PPH_ARCH_CPU, k_bump, "bump", 0 },
	{ PPH_ARCH_CPU, k_bump, "bump_too", 0 },
};
static const struct pph_codelet bump_cl = { "bump", 1, bump_impls, PPH_MODEL_DEFAULT };
static const struct pph_codelet bump2_cl = { "bump2", 2, bump_impls, PPH_MODEL_DEFAULT };

/* Returns how many of the 200 tasks of cl the application thread ran. */
static int undeferred_count(const struct pph_codelet *cl, unsigned impl_mask)
{
	struct pph_task *tasks[200];
	long values[200];
	pph_data_handle h[200];
	int i, on_app = 0;

	atomic_store(&holds_in, 0);
	atomic_store(&hold_open, 0);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(pph_call_async(&hold_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	while (atomic_load(&holds_in) < 2)
		sched_yield();
	for (i = 0; i < 200; i++) {
		values[i] = i;
		pph_variable_register(&h[i], &values[i], sizeof(long));
		tasks[i] = pph_task_create(cl);
		pph_task_add_buffer(tasks[i], h[i], PPH_RW);
		pph_task_set_impl_mask(tasks[i], impl_mask);
		CU_ASSERT_EQUAL(pph_task_submit(tasks[i]), 0);
	}
	atomic_store(&hold_open, 1);
	for (i = 0; i < 200; i++) {
		pph_task_wait(tasks[i]);
		on_app += pph_task_worker_ran(tasks[i]) == PPH_WORKER_APPLICATION;
		pph_task_destroy(tasks[i]);
		pph_data_unregister(h[i]);
		CU_ASSERT_EQUAL(values[i], i + 1);
	}
	pph_task_wait_all(); /* the holds too: the next round closes the gate */
	return on_app;
}

static void test_undeferred(void)
{
	/* a fresh runtime: no OPENMP variant submitted yet (see has_parallel);
	 * the backlog alone, whatever the model says of bump */
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	/* pending at task j: 2 holds + j queued (a task is counted once it
	 * does not run at once); beyond 128 from j = 127 on, and each of
	 * those finishes before the next comes */
	CU_ASSERT_EQUAL(undeferred_count(&bump_cl, PPH_ALL_IMPLS), 73);
	/* two runnable variants: the scheduler chooses, nothing undeferred */
	CU_ASSERT_EQUAL(undeferred_count(&bump2_cl, PPH_ALL_IMPLS), 0);
	/* one allowed variant: undeferred again */
	CU_ASSERT_EQUAL(undeferred_count(&bump2_cl, 1u << 1), 73);
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(undeferred_count(&bump_cl, PPH_ALL_IMPLS), 0);
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
	unsetenv("PEPPHER_TINY_US");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void k_tiny(void *buffers[], void *arg)
{
	(void)arg;
	(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}

static const struct pph_impl tiny_impls[] = {
	{ PPH_ARCH_CPU, k_tiny, "tiny", 0 },
	{ PPH_ARCH_CPU, k_tiny, "tiny_too", 0 },
};
static const struct pph_codelet tiny_cl = { "tiny", 1, tiny_impls, PPH_MODEL_DEFAULT };
static const struct pph_codelet tiny2_cl = { "tiny2", 2, tiny_impls, PPH_MODEL_DEFAULT };

/* holds with two variants: never run at submission, however tiny the
 * threshold makes them */
static const struct pph_impl hold2_impls[] = {
	{ PPH_ARCH_CPU, k_hold, "hold", 0 },
	{ PPH_ARCH_CPU, k_hold, "hold_too", 0 },
};
static const struct pph_codelet hold2_cl = { "hold2", 2, hold2_impls, PPH_MODEL_DEFAULT };

/* Calibrate cl's variants with tasks on the workers, then count how many
 * of 20 ready tasks the application thread ran while both workers were
 * held: far below the backlog, so only because they are tiny. */
static int tiny_count(const struct pph_codelet *cl)
{
	struct pph_task *tasks[20];
	long value = 0;
	pph_data_handle h;
	int i, on_app = 0;

	pph_variable_register(&h, &value, sizeof(value));
	for (i = 0; i < 40; i++) /* uncalibrated: queued */
		CU_ASSERT_EQUAL(pph_call_async(cl, PPH_ALL_IMPLS, 1, &h, (enum pph_access[]){ PPH_RW },
					       NULL, 0), 0);
	pph_task_wait_all();
	atomic_store(&holds_in, 0);
	atomic_store(&hold_open, 0);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(pph_call_async(&hold2_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	while (atomic_load(&holds_in) < 2)
		sched_yield();
	for (i = 0; i < 20; i++) {
		tasks[i] = pph_task_create(cl);
		pph_task_add_buffer(tasks[i], h, PPH_RW);
		CU_ASSERT_EQUAL(pph_task_submit(tasks[i]), 0);
	}
	atomic_store(&hold_open, 1);
	for (i = 0; i < 20; i++) {
		pph_task_wait(tasks[i]);
		on_app += pph_task_worker_ran(tasks[i]) == PPH_WORKER_APPLICATION;
		pph_task_destroy(tasks[i]);
	}
	pph_task_wait_all();
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(value, 60);
	return on_app;
}

/*
 * A tiny task run in place holds its handles' locks while its variant
 * runs; one that calls the runtime is listed on its handles first and lets
 * them go.  This variant submits a task on its own handle (which must run
 * after it), then makes a synchronous call (a wait), then reads another
 * handle from the host.
 */
static pph_data_handle nest_h, nest_count_h;

static void k_nest(void *buffers[], void *arg)
{
	long *x = PPH_VARIABLE_PTR(buffers[0]);

	(void)arg;
	CU_ASSERT_EQUAL(pph_call_async(&tiny_cl, PPH_ALL_IMPLS, 1, &nest_h,
				       (enum pph_access[]){ PPH_RW }, NULL, 0), 0);
	*x = *x * 3 % 1000003; /* before the task just submitted adds 1 */
	CU_ASSERT_EQUAL(pph_call_sync(&tiny_cl, PPH_ALL_IMPLS, 1, &nest_count_h,
				      (enum pph_access[]){ PPH_RW }, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(nest_count_h, PPH_R), 0);
}

static const struct pph_impl nest_impls[] = { { PPH_ARCH_CPU, k_nest, "nest", 0 } };
static const struct pph_codelet nest_cl = { "nest", 1, nest_impls, PPH_MODEL_DEFAULT };

static void test_in_place_calls_runtime(void)
{
	long x = 0, count = 0, expected = 0;
	int i, on_app = 0;

	pph_variable_register(&nest_h, &x, sizeof(x));
	pph_variable_register(&nest_count_h, &count, sizeof(count));
	for (i = 0; i < 60; i++) {
		struct pph_task *t = pph_task_create(&nest_cl);

		pph_task_add_buffer(t, nest_h, PPH_RW);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		pph_task_wait(t);
		/* the first 40 calibrate the model on the workers; then every
		 * one finds its handle free, tiny, and runs in place */
		if (i >= 40)
			on_app += pph_task_worker_ran(t) == PPH_WORKER_APPLICATION;
		pph_task_destroy(t);
		pph_task_wait_all(); /* the task it submitted */
		expected = (expected * 3 % 1000003) + 1;
	}
	pph_data_unregister(nest_h);
	pph_data_unregister(nest_count_h);
	CU_ASSERT_EQUAL(on_app, 20);
	CU_ASSERT_EQUAL(x, expected);
	CU_ASSERT_EQUAL(count, 60);
}

/* The statistics list tiny tasks per variant, under their sum: the 20 of
 * tiny_count and any of its calibration's 40 that ran in place. */
static void check_tiny_stats(void)
{
	char *buf = NULL;
	const char *at;
	size_t len = 0;
	unsigned long total = 0, runs = 0;
	FILE *fp = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	pph_stats_print(fp);
	fclose(fp);
	/* the line of the sum, after the one of what ran in a worker's place */
	at = strstr(buf, " tiny tasks run in place");
	while (at && at > buf && at[-1] != '\n')
		at--;
	CU_ASSERT_TRUE(at && sscanf(at, "application threads: %lu tiny", &total) == 1);
	at = at ? strstr(at, "\n    tiny/tiny: ") : NULL;
	CU_ASSERT_TRUE(at && sscanf(at, "\n    tiny/tiny: %lu tasks, ", &runs) == 1);
	CU_ASSERT_TRUE(runs >= 20 && runs <= 60);
	CU_ASSERT_EQUAL(total, runs);
	free(buf);
}

static void test_tiny(void)
{
	/* every calibrated variant counts as tiny: no timing in this test */
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "1e9", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(tiny_count(&tiny_cl), 20);
	check_tiny_stats();
	/* two runnable variants: the scheduler chooses, nothing run at once */
	CU_ASSERT_EQUAL(tiny_count(&tiny2_cl), 0);
	test_in_place_calls_runtime();
	pph_shutdown();
	/* 0 turns the rule off; a bad value is refused */
	setenv("PEPPHER_TINY_US", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(tiny_count(&tiny_cl), 0);
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "-1", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_TINY_US", "fast", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	unsetenv("PEPPHER_TINY_US");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/*
 * A synchronous call's task, chosen by dmda for an idle CPU worker, runs on
 * the calling thread in that worker's place; an asynchronous one, and any
 * with PEPPHER_UNDEFERRED=0, on the workers.  Each variant adds its number
 * of runs to v[i] and says on which thread it ran.
 */
static pthread_t caller;
static atomic_int on_caller, on_others;

static void k_add_run(void *buffers[], void *arg)
{
	long *v = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++)
		v[i] += (long)i;
	atomic_fetch_add(pthread_equal(pthread_self(), caller) ? &on_caller : &on_others, 1);
}

static const struct pph_impl add_run_impls[] = {
	{ PPH_ARCH_CPU, k_add_run, "first", 0 },
	{ PPH_ARCH_CPU, k_add_run, "second", 0 },
};
static const struct pph_codelet add_run_cl = { "add_run", 2, add_run_impls, PPH_MODEL_DEFAULT };

/* 20 synchronous calls then 20 asynchronous ones on a vector of 1000
 * longs; checks the vector.  Returns the calls run on this thread. */
static int sync_calls_on_caller(void)
{
	long v[1000];
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	int i, here;

	memset(v, 0, sizeof(v));
	caller = pthread_self();
	atomic_store(&on_caller, 0);
	atomic_store(&on_others, 0);
	pph_vector_register(&h, v, 1000, sizeof(long));
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&add_run_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	here = atomic_load(&on_caller);
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(pph_call_async(&add_run_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	pph_task_wait_all();
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(atomic_load(&on_caller), here); /* none of the asynchronous ones */
	CU_ASSERT_EQUAL(atomic_load(&on_caller) + atomic_load(&on_others), 40);
	for (i = 0; i < 1000; i++)
		if (v[i] != 40L * i)
			break;
	CU_ASSERT_EQUAL(i, 1000);
	return here;
}

static void test_sync_call_on_caller(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	CU_ASSERT_EQUAL(sync_calls_on_caller(), 20);
	fp = open_memstream(&buf, &len);
	pph_stats_print(fp);
	fclose(fp);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "application threads: 20 tasks, busy "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    add_run/first: "));
	free(buf);
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(sync_calls_on_caller(), 0);
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/*
 * With one CPU worker: a call run in its place calls a component whose only
 * variant is fork-join.  That task is queued for the worker (busy in the
 * scheduler's eyes), which needs its core exclusive: the waiting caller
 * lets it go.  Held, this hung.
 */
static pph_data_handle inner_h;

static void k_inner_omp(void *buffers[], void *arg)
{
	(void)arg;
	*(long *)PPH_VARIABLE_PTR(buffers[0]) += pph_openmp_threads();
}

static const struct pph_impl inner_impls[] = { { PPH_ARCH_OPENMP, k_inner_omp, "inner_omp", 0 } };
static const struct pph_codelet inner_cl = { "inner", 1, inner_impls, PPH_MODEL_DEFAULT };

static void k_outer(void *buffers[], void *arg)
{
	enum pph_access rw = PPH_RW;

	(void)buffers;
	(void)arg;
	CU_ASSERT_EQUAL(pph_call_sync(&inner_cl, PPH_ALL_IMPLS, 1, &inner_h, &rw, NULL, 0), 0);
}

static const struct pph_impl outer_impls[] = {
	{ PPH_ARCH_CPU, k_outer, "outer", 0 },
	{ PPH_ARCH_CPU, k_outer, "outer_too", 0 },
};
static const struct pph_codelet outer_cl = { "outer", 2, outer_impls, PPH_MODEL_DEFAULT };

static void test_sync_call_nested_one_worker(void)
{
	long count = 0;
	int i;

	pph_shutdown();
	setenv("PEPPHER_NCPU", "1", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_variable_register(&inner_h, &count, sizeof(count));
	/* the first call makes fork-join variants known: cores are locked
	 * from the second on */
	for (i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&outer_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	pph_data_unregister(inner_h);
	CU_ASSERT_EQUAL(count, 5); /* teams of one thread */
	pph_shutdown();
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* Calls of a fork-join variant on a team of both workers are handed over:
 * what the caller waits beyond their runs is measured. */
static void test_sync_call_handover_measured(void)
{
	long count = 0;
	int i;

	pph_variable_register(&inner_h, &count, sizeof(count));
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&inner_cl, PPH_ALL_IMPLS, 1, &inner_h,
					      (enum pph_access[]){ PPH_RW }, NULL, 0), 0);
	pph_data_unregister(inner_h);
	CU_ASSERT_TRUE(count >= 20 && count <= 40); /* teams of 1 or 2 */
	/* some ran on a team of 2, handed over */
	CU_ASSERT_TRUE(count > 20);
	CU_ASSERT_TRUE(atomic_load(&pph__rt.handover_us) > 0);
}

/*
 * A variant left by longjmp, as libpng's error handler leaves a library
 * call: run on the calling thread (in an idle worker's place under dmda,
 * or as a tiny task, holding its handles' locks), its task must end, so
 * that the next call on the same data runs, and the thread is no longer
 * inside a task (pph_shutdown refused that).  The variant jumps only on
 * the calling thread: from a worker's, a jump to the caller's stack could
 * not be made good.
 */
static jmp_buf jump_env;
static atomic_int jumps;

static void k_jump(void *buffers[], void *arg)
{
	long *v = PPH_VECTOR_PTR(buffers[0]);

	v[0]++;
	if (*(const int *)arg && pthread_equal(pthread_self(), caller)) {
		atomic_fetch_add(&jumps, 1);
		longjmp(jump_env, 1);
	}
}

static const struct pph_impl jump_impls[] = { { PPH_ARCH_CPU, k_jump, "jump", 0 } };
static const struct pph_codelet jump_cl = { "jump", 1, jump_impls, PPH_MODEL_DEFAULT };

static int jump_call(pph_data_handle h, int jump)
{
	return pph_call_sync(&jump_cl, PPH_ALL_IMPLS, 1, &h, (enum pph_access[]){ PPH_RW }, &jump,
			     sizeof(jump));
}

/* calls calls that may jump, each followed by one that does not, on one
 * vector; returns how many ran, the jumps among them */
static long jump_calls(int calls)
{
	static long v[4];
	pph_data_handle h;
	volatile int i;

	v[0] = 0;
	atomic_store(&jumps, 0);
	caller = pthread_self();
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, 4, sizeof(long)), 0);
	for (i = 0; i < calls; i++) {
		if (setjmp(jump_env) == 0)
			CU_ASSERT_EQUAL(jump_call(h, 1), 0); /* ran on a worker */
		/* the one left is over: this call on its data runs */
		CU_ASSERT_EQUAL(jump_call(h, 0), 0);
		CU_ASSERT_FALSE(pph__running_task_here());
	}
	pph_task_wait_all();
	pph_data_unregister(h);
	return v[0];
}

static void test_variant_left_by_longjmp(void)
{
	/* in an idle worker's place (dmda) */
	CU_ASSERT_EQUAL(jump_calls(10), 20);
	CU_ASSERT_TRUE(atomic_load(&jumps) >= 5);
	/* as tiny tasks (calibrated by the calls that returned) */
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "1e9", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(jump_calls(10), 20);
	CU_ASSERT_TRUE(atomic_load(&jumps) >= 5);
	pph_shutdown();
	unsetenv("PEPPHER_TINY_US");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

void add_submit_suite(void)
{
	CU_pSuite s = CU_add_suite("submit", init_eager, suite_clean);

	CU_add_test(s, "undeferred tasks beyond the backlog", test_undeferred);
	CU_add_test(s, "tiny tasks run at submission", test_tiny);
	s = CU_add_suite("submit_sync", init_dmda, suite_clean);
	CU_add_test(s, "a synchronous call runs in an idle worker's place", test_sync_call_on_caller);
	CU_add_test(s, "a call run there calls a fork-join one, one worker",
		    test_sync_call_nested_one_worker);
	CU_add_test(s, "a hand-over's cost is measured", test_sync_call_handover_measured);
	CU_add_test(s, "a variant left by longjmp ends its call", test_variant_left_by_longjmp);
}
