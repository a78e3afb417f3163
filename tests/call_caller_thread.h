/*
 * Variants that run on the thread that made the call
 * (PPH_IMPL_CALLER_THREAD), checked on both runtimes
 * (tests/runtime/suite_wrappers.c with every other call on a worker,
 * tests/starpu/test_starpu.c): a library's per-thread state, set by the
 * caller, is what the variant sees, every time; the call still waits for
 * the tasks before it on its data and the ones after it wait for it; an
 * asynchronous call of such a codelet returns having run, a split one
 * runs whole, a task submitted otherwise is refused; where another
 * variant can run, that one runs instead.
 */
#ifndef TESTS_CALL_CALLER_THREAD_H
#define TESTS_CALL_CALLER_THREAD_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define CALLER_CALLS 20

/* a library's per-thread state: its last error, say */
static __thread int library_state;
static pthread_t caller_thread;
static atomic_int caller_runs, caller_elsewhere, caller_other_state, other_runs;

/* x[0] += 1, noting where it ran and what state it saw */
static void on_caller(void *buffers[], void *arg)
{
	int *x = (int *)PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	atomic_fetch_add(&caller_runs, 1);
	if (!pthread_equal(pthread_self(), caller_thread))
		atomic_fetch_add(&caller_elsewhere, 1);
	if (library_state != 7)
		atomic_fetch_add(&caller_other_state, 1);
	x[0] += 1;
}

static void anywhere(void *buffers[], void *arg)
{
	int *x = (int *)PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	atomic_fetch_add(&other_runs, 1);
	x[0] += 1;
}

/* x[0] = 41, a while after it starts: a call after it must wait */
static void slow_set(void *buffers[], void *arg)
{
	struct timespec pause = { 0, 20000000 };

	(void)arg;
	nanosleep(&pause, NULL);
	((int *)PPH_VECTOR_PTR(buffers[0]))[0] = 41;
}

static const struct pph_impl on_caller_impls[] = {
	{ PPH_ARCH_CPU, on_caller, "on_caller_cpu", PPH_IMPL_CALLER_THREAD },
};
static const struct pph_codelet on_caller_cl = { "on_caller", 1, on_caller_impls,
						 PPH_MODEL_DEFAULT };
static const struct pph_impl either_impls[] = {
	{ PPH_ARCH_CPU, on_caller, "either_caller_cpu", PPH_IMPL_CALLER_THREAD },
	{ PPH_ARCH_CPU, anywhere, "either_cpu", 0 },
};
static const struct pph_codelet either_cl = { "either", 2, either_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl slow_set_impls[] = { { PPH_ARCH_CPU, slow_set, "slow_set_cpu", 0 } };
static const struct pph_codelet slow_set_cl = { "slow_set", 1, slow_set_impls, PPH_MODEL_DEFAULT };

static void check_caller_thread(void)
{
	static const int parts[1] = { 2 };
	int x[64] = { 0 }, i;
	pph_data_handle h;
	enum pph_access rw = PPH_RW, w = PPH_W;
	struct pph_task *t;

	caller_thread = pthread_self();
	library_state = 7;
	atomic_store(&caller_runs, 0);
	atomic_store(&caller_elsewhere, 0);
	atomic_store(&caller_other_state, 0);
	atomic_store(&other_runs, 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 64, sizeof(int)), 0);

	/* synchronous calls: all on this thread, with its state */
	for (i = 0; i < CALLER_CALLS; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&on_caller_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&caller_runs), CALLER_CALLS);
	CU_ASSERT_EQUAL(atomic_load(&caller_elsewhere), 0);
	CU_ASSERT_EQUAL(atomic_load(&caller_other_state), 0);

	/* in the data's order: after a slow task that sets it, before the
	 * host reads it */
	CU_ASSERT_EQUAL(pph_call_async(&slow_set_cl, PPH_ALL_IMPLS, 1, &h, &w, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&on_caller_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	/* asynchronous: run by the time it returns */
	CU_ASSERT_EQUAL(pph_call_async(&on_caller_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&caller_runs), CALLER_CALLS + 2);
	/* split: whole, once */
	CU_ASSERT_EQUAL(pph_call_partitioned(&on_caller_cl, PPH_ALL_IMPLS, 1, &h, &rw, parts, NULL,
					     0),
			0);
	CU_ASSERT_EQUAL(atomic_load(&caller_runs), CALLER_CALLS + 3);
	CU_ASSERT_EQUAL(atomic_load(&caller_elsewhere), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_EQUAL(x[0], 44);

	/* a task submitted otherwise: refused */
	t = pph_task_create(&on_caller_cl);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, PPH_RW), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV);
	pph_task_destroy(t);

	/* another variant that a worker can run: that one */
	for (i = 0; i < CALLER_CALLS; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&either_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&other_runs), CALLER_CALLS);
	CU_ASSERT_EQUAL(atomic_load(&caller_runs), CALLER_CALLS + 3);
	/* unless the call allows the caller's alone */
	CU_ASSERT_EQUAL(pph_call_sync(&either_cl, 1u, 1, &h, &rw, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&caller_runs), CALLER_CALLS + 4);
	CU_ASSERT_EQUAL(atomic_load(&caller_elsewhere), 0);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[0], 44 + CALLER_CALLS + 1);
}

#endif
