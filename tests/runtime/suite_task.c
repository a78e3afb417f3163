/* Unit tests of runtime/task.c: making, submitting, waiting for and finishing tasks. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
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

#define NTASKS 10000

/* slot[arg] += 1: each task touches its own slot of one shared vector */
static void k_increment(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);

	v[*(int *)arg] += 1;
}

static const struct pph_impl increment_impls[] = {
	{ PPH_ARCH_CPU, k_increment, "increment", 0 },
};
static const struct pph_codelet increment_cl = { "increment", 1, increment_impls, PPH_MODEL_DEFAULT };

static void test_each_task_once(void)
{
	int *slots = calloc(NTASKS, sizeof(int));
	pph_data_handle h;
	int i, ok = 1;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, slots, NTASKS, sizeof(int)), 0);
	/* readers: independent tasks touch distinct slots, so all may overlap */
	for (i = 0; i < NTASKS; i++)
		task1(&increment_cl, h, PPH_R, i, 1);
	pph_task_wait_all();
	for (i = 0; i < NTASKS; i++)
		ok &= slots[i] == 1;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	free(slots);
}

static void test_wait_one(void)
{
	int v[4] = { 0 }, arg = 7;
	pph_data_handle h;
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, 4, sizeof(int)), 0);
	t = task1(&fill_cl, h, PPH_W, arg, 0);
	CU_ASSERT_EQUAL(pph_task_wait(t), 0);
	/* after wait, the task's effect is visible and its record readable */
	CU_ASSERT_EQUAL(v[3], 7);
	CU_ASSERT_EQUAL(pph_task_impl_ran(t), 0);
	CU_ASSERT_TRUE(pph_task_worker_ran(t) >= 0 &&
		       pph_task_worker_ran(t) < (int)pph_worker_count());
	pph_task_destroy(t);
	pph_data_unregister(h);
}

/*
 * A thread waiting for the end of a short chain that is not yet queued when
 * it starts to wait (the ODE solver's step) yields until it ends, instead of
 * sleeping and being woken (30-60 us on a virtual machine); one waiting for
 * a task predicted longer than the yields last sleeps at once.
 */
static void k_spin_arg(void *buffers[], void *arg)
{
	(void)buffers;
	spin_us(*(const int *)arg);
}

static const struct pph_impl spin_impls[] = { { PPH_ARCH_CPU, k_spin_arg, "spin_arg", 0 } };
static const struct pph_codelet spin_cl = { "wait_spin", 1, spin_impls, PPH_MODEL_HISTORY };

static struct pph_task *spin_task(pph_data_handle h, int us)
{
	struct pph_task *t = pph_task_create(&spin_cl);

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, PPH_RW), 0);
	CU_ASSERT_EQUAL(pph_task_set_arg(t, &us, sizeof(us)), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	return t;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void test_wait_yields_for_short_chain(void)
{
	int v = 0, w[2] = { 0 }, k, r, fast = 0, fast_slept = 0;
	unsigned long slept;
	pph_data_handle h, hl;
	struct pph_task *t[6];

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, &v, 1, sizeof(v)), 0);
	for (r = 0; r < 100; r++) { /* some rounds free of other work, under load too */
		double t0 = now_us();

		slept = atomic_load(&pph__rt.waits_slept);
		for (k = 0; k < 6; k++)
			t[k] = spin_task(h, 50);
		CU_ASSERT_EQUAL(pph_task_wait(t[5]), 0);
		/* 300 us of tasks: a round under 800 us was not held up by
		 * other work on the machine, and its waiter did not sleep
		 * (where waits yielded only for a queued task predicted under
		 * 50 us, it did in most rounds) */
		if (now_us() - t0 < 800) {
			fast++;
			fast_slept += atomic_load(&pph__rt.waits_slept) != slept;
		}
		for (k = 0; k < 6; k++)
			pph_task_destroy(t[k]);
	}
	CU_ASSERT_TRUE(fast > 0);
	CU_ASSERT_EQUAL(fast_slept, 0);
	pph_data_unregister(h);
	if (strcmp(sched_name, "dmda") != 0)
		return; /* the others predict nothing */
	/* 5 ms tasks on another handle (another footprint): calibrated first */
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hl, w, 2, sizeof(int)), 0);
	for (k = 0; k < 5; k++) {
		t[0] = spin_task(hl, 5000);
		CU_ASSERT_EQUAL(pph_task_wait(t[0]), 0);
		pph_task_destroy(t[0]);
	}
	/* its waiter sleeps at once: it spends a few microseconds of its
	 * thread's time, where yielding until the budget ran out would spend
	 * a millisecond (one descheduled for the whole 5 ms may find the task
	 * done, and not sleep at all) */
	for (k = 0, r = 0; k < 3; k++) {
		struct timespec a, b;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
		t[0] = spin_task(hl, 5000);
		CU_ASSERT_EQUAL(pph_task_wait(t[0]), 0);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
		r += (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3 < 300;
		pph_task_destroy(t[0]);
	}
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
	/* a time, which a sanitizer's build multiplies (1 of 3 under
	 * ThreadSanitizer on 2 loaded cores) */
	CU_ASSERT_TRUE(r >= 2);
#endif
	pph_data_unregister(hl);
}

static void test_arg_is_copied(void)
{
	double out = 0;
	struct args3 a = { 2.0, 5, "ab" };
	pph_data_handle h;
	struct pph_task *t = pph_task_create(&args_cl);

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h, &out, sizeof(out)), 0);
	pph_task_add_buffer(t, h, PPH_W);
	pph_task_set_arg(t, &a, sizeof(a));
	a.b = 1000; /* changing the caller's copy must not matter */
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -EBUSY);
	pph_task_wait(t);
	CU_ASSERT_DOUBLE_EQUAL(out, 12.0, 1e-12);
	pph_task_destroy(t);
	pph_data_unregister(h);
}

static void test_forced_impls(void)
{
	struct pph_task *t;
	int i;

	atomic_store(&impl_a_runs, 0);
	atomic_store(&impl_b_runs, 0);
	for (i = 0; i < 10; i++) {
		t = pph_task_create(&two_cl);
		CU_ASSERT_EQUAL(pph_task_force_impl(t, i % 2), 0);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		pph_task_wait(t);
		CU_ASSERT_EQUAL(pph_task_impl_ran(t), i % 2);
		pph_task_destroy(t);
	}
	CU_ASSERT_EQUAL(atomic_load(&impl_a_runs), 5);
	CU_ASSERT_EQUAL(atomic_load(&impl_b_runs), 5);
	t = pph_task_create(&two_cl);
	CU_ASSERT_EQUAL(pph_task_force_impl(t, 2), -EINVAL);
	pph_task_destroy(t);
}

/* What the entry wrapper of a component with dynamic constraints does. */
static void test_impl_mask(void)
{
	struct pph_task *t;
	int i;

	atomic_store(&impl_a_runs, 0);
	atomic_store(&impl_b_runs, 0);
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&two_cl, 1u << 1, 0, NULL, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&impl_a_runs), 0);
	CU_ASSERT_EQUAL(atomic_load(&impl_b_runs), 20);
	/* a mask that allows no variant: the call is refused, nothing runs */
	CU_ASSERT_EQUAL(pph_call_sync(&two_cl, 1u << 2, 0, NULL, NULL, NULL, 0), -ENODEV);
	CU_ASSERT_EQUAL(pph_call_async(&two_cl, 0, 0, NULL, NULL, NULL, 0), -ENODEV);
	t = pph_task_create(&two_cl);
	CU_ASSERT_EQUAL(pph_task_set_impl_mask(t, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_set_impl_mask(t, 3u), 0);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(atomic_load(&impl_a_runs) + atomic_load(&impl_b_runs), 20);
}

static void count_callback(void *data)
{
	atomic_fetch_add((atomic_int *)data, 1);
}

static void test_callbacks(void)
{
	atomic_int calls;
	int i;

	atomic_init(&calls, 0);
	for (i = 0; i < 50; i++) {
		struct pph_task *t = pph_task_create(&two_cl);

		pph_task_set_callback(t, count_callback, &calls);
		pph_task_set_detached(t, 1);
		pph_task_submit(t);
	}
	pph_task_wait_all();
	CU_ASSERT_EQUAL(atomic_load(&calls), 50);
}

static void test_no_worker_for_variant(void)
{
	struct pph_task *t = pph_task_create(&cuda_cl);

	CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV);
	pph_task_destroy(t);
}

static void test_bad_buffers(void)
{
	struct pph_task *t = pph_task_create(&two_cl);
	int v;
	pph_data_handle h;
	int i;

	pph_vector_register(&h, &v, 1, sizeof(v));
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, NULL, PPH_R), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, (enum pph_access)0), -EINVAL);
	for (i = 0; i < PPH_MAX_BUFFERS; i++)
		CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, PPH_R), 0);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, PPH_R), -E2BIG);
	pph_task_destroy(t);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(pph_vector_register(&h, &v, 1, 0), -EINVAL);
	CU_ASSERT_PTR_NULL(pph_task_create(NULL));
}

/* priorities: a gate holds the only worker while tasks queue up */
static atomic_int gate_open, order_len;
static int order[16];

static void k_gate(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	while (!atomic_load(&gate_open))
		sched_yield();
}

static void k_log(void *buffers[], void *arg)
{
	(void)buffers;
	order[atomic_fetch_add(&order_len, 1)] = *(int *)arg;
}

static const struct pph_impl gate_impls[] = { { PPH_ARCH_CPU, k_gate, "gate", 0 } };
static const struct pph_codelet gate_cl = { "gate", 1, gate_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl log_impls[] = { { PPH_ARCH_CPU, k_log, "log", 0 } };
static const struct pph_codelet log_cl = { "log", 1, log_impls, PPH_MODEL_DEFAULT };

/* Several application threads submit at once, each a chain on its own
 * handle whose result depends on the order, and all of them increments of
 * one shared handle (tasks of one thread wait for those of another); the
 * threads end before pph_shutdown, which must still free the tasks they
 * kept (ASan run). */
struct submitter {
	pph_data_handle h;
	long x;
};

static void k_count(void *buffers[], void *arg)
{
	(void)arg;
	(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}

static const struct pph_impl count_impls[] = { { PPH_ARCH_CPU, k_count, "count", 0 } };
static const struct pph_codelet count_cl = { "count", 1, count_impls, PPH_MODEL_DEFAULT };
static pph_data_handle shared_h; /* every thread counts there too */

/* Reads the shared count into a chain's value, times 0: two handles, one
 * of them written by the other threads meanwhile. */
static void k_peek(void *buffers[], void *arg)
{
	(void)arg;
	*(long *)PPH_VARIABLE_PTR(buffers[0]) += 0 * *(long *)PPH_VARIABLE_PTR(buffers[1]);
}

static const struct pph_impl peek_impls[] = { { PPH_ARCH_CPU, k_peek, "peek", 0 } };
static const struct pph_codelet peek_cl = { "peek", 1, peek_impls, PPH_MODEL_DEFAULT };

static void *submit_chain(void *arg)
{
	struct submitter *sub = arg;
	int i;

	for (i = 0; i < 2000; i++) {
		if (pph_call_async(&affine_cl, PPH_ALL_IMPLS, 1, &sub->h,
				   (enum pph_access[]){ PPH_RW }, &i, sizeof(i)) != 0)
			return arg;
		if (i % 4 == 0 &&
		    pph_call_async(&count_cl, PPH_ALL_IMPLS, 1, &shared_h,
				   (enum pph_access[]){ PPH_RW }, NULL, 0) != 0)
			return arg;
		if (i % 4 == 2 &&
		    pph_call_async(&peek_cl, PPH_ALL_IMPLS, 2, (pph_data_handle[]){ sub->h, shared_h },
				   (enum pph_access[]){ PPH_RW, PPH_R }, NULL, 0) != 0)
			return arg;
	}
	return NULL;
}

static void threads_submit(void)
{
	struct submitter subs[4];
	pthread_t threads[4];
	long expected = 0, count = 0;
	int i, t;

	for (i = 0; i < 2000; i++)
		expected = (expected * 3 + i) % 1000003;
	pph_variable_register(&shared_h, &count, sizeof(count));
	for (t = 0; t < 4; t++) {
		subs[t].x = 0;
		pph_variable_register(&subs[t].h, &subs[t].x, sizeof(long));
	}
	for (t = 0; t < 4; t++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&threads[t], NULL, submit_chain, &subs[t]), 0);
	for (t = 0; t < 4; t++) {
		void *failed;

		pthread_join(threads[t], &failed);
		CU_ASSERT_PTR_NULL(failed);
	}
	pph_task_wait_all();
	for (t = 0; t < 4; t++) {
		pph_data_unregister(subs[t].h);
		CU_ASSERT_EQUAL(subs[t].x, expected);
	}
	pph_data_unregister(shared_h);
	CU_ASSERT_EQUAL(count, 4 * 500);
}

static void test_threads_submit(void)
{
	threads_submit();
	/* again with every calibrated task tiny: run in place, by four
	 * threads on shared handles at once */
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "1e9", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	threads_submit();
	pph_shutdown();
	unsetenv("PEPPHER_TINY_US");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

/*
 * An application thread made with a small stack submits: 32 KiB, twice
 * PTHREAD_STACK_MIN.  dmda's choice alone took 18.7 KiB of the submitting
 * thread's stack, and such a thread faulted at its first submission.
 * Submitted and waited for, detached, and a synchronous call (run in the
 * thread's place where its worker is idle), each a chain on one variable.
 */
#define SMALL_STACK (32 * 1024)

static void *small_stack_submits(void *arg)
{
	long *x = arg;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int i, rc = 0;

	if (pph_variable_register(&h, x, sizeof(*x)))
		return NULL;
	for (i = 0; i < 8 && !rc; i++) {
		struct pph_task *t = pph_task_create(&affine_cl);

		rc = !t || pph_task_add_buffer(t, h, PPH_RW) || pph_task_set_arg(t, &i, sizeof(i));
		if (!rc) {
			pph_task_set_detached(t, i % 2);
			rc = pph_task_submit(t) || (i % 2 == 0 && pph_task_wait(t));
			if (i % 2 == 0)
				pph_task_destroy(t);
		}
	}
	for (; i < 16 && !rc; i++)
		rc = pph_call_sync(&affine_cl, PPH_ALL_IMPLS, 1, &h, &mode, &i, sizeof(i));
	pph_data_unregister(h);
	return rc ? NULL : x;
}

static void test_small_stack_thread(void)
{
	pthread_attr_t attr;
	pthread_t th;
	long x = 1, expect = 1;
	void *ret = NULL;
	int i;

	for (i = 0; i < 16; i++)
		expect = (expect * 3 + i) % 1000003;
	CU_ASSERT_EQUAL_FATAL(pthread_attr_init(&attr), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, &attr, small_stack_submits, &x), 0);
	pthread_attr_destroy(&attr);
	CU_ASSERT_EQUAL(pthread_join(th, &ret), 0);
	CU_ASSERT_PTR_EQUAL(ret, &x);
	CU_ASSERT_EQUAL(x, expect);
}

static void test_priorities(void)
{
	struct pph_task *t;
	int i;

	pph_shutdown();
	setenv("PEPPHER_NCPU", "1", 1);
	/* every task queued: one run at its submission has no place in the order */
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	unsetenv("PEPPHER_UNDEFERRED");
	atomic_store(&gate_open, 0);
	atomic_store(&order_len, 0);
	t = pph_task_create(&gate_cl);
	pph_task_set_detached(t, 1);
	pph_task_submit(t);
	for (i = 0; i < 8; i++) {
		t = pph_task_create(&log_cl);
		pph_task_set_arg(t, &i, sizeof(i));
		/* 1, 4 and 7 are urgent, 6 is less urgent than the rest */
		pph_task_set_priority(t, i % 3 == 1 ? 5 : i == 6 ? -1 : 0);
		pph_task_set_detached(t, 1);
		pph_task_submit(t);
	}
	atomic_store(&gate_open, 1);
	pph_task_wait_all();
	CU_ASSERT_EQUAL(atomic_load(&order_len), 8);
	{
		static const int expected[8] = { 1, 4, 7, 0, 2, 3, 5, 6 };

		CU_ASSERT_EQUAL(memcmp(order, expected, sizeof(expected)), 0);
	}
	pph_shutdown();
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* The task tests, in a suite run under each scheduler. */
void add_task_tests(CU_pSuite s)
{
	CU_add_test(s, "each of 10000 tasks runs once", test_each_task_once);
	CU_add_test(s, "wait for one task", test_wait_one);
	CU_add_test(s, "a wait for a short chain yields, for a long task sleeps",
		    test_wait_yields_for_short_chain);
	CU_add_test(s, "argument block is copied", test_arg_is_copied);
	CU_add_test(s, "forced variants", test_forced_impls);
	CU_add_test(s, "variant masks", test_impl_mask);
	CU_add_test(s, "callbacks", test_callbacks);
	CU_add_test(s, "no worker for the variant", test_no_worker_for_variant);
	CU_add_test(s, "bad buffers", test_bad_buffers);
	CU_add_test(s, "priorities", test_priorities);
	CU_add_test(s, "several application threads submit", test_threads_submit);
	CU_add_test(s, "a thread with a 32 KiB stack submits", test_small_stack_thread);
}
