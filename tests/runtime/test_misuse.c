/*
 * Unit tests of how the runtime takes misuse: NULL arguments, sizes that
 * overflow, handles unregistered or partitioned twice, pph_shutdown inside
 * a task, a failed initialisation and calls before it (init.c, data.c,
 * task.c, memory.c, containers.c).  Each checks the results, not only the
 * return codes: what a refused call leaves must still work.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/containers.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "testutil.h"


/* x[i] += 1 for a vector of ints */
static void k_inc(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++)
		x[i] += 1;
}

static const struct pph_impl inc_impls[] = { { PPH_ARCH_CPU, k_inc, "inc_cpu", 0 } };
static const struct pph_codelet inc_cl = { "misuse_inc", 1, inc_impls, PPH_MODEL_DEFAULT };

static int inc(pph_data_handle h)
{
	static const enum pph_access rw = PPH_RW;

	return pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
}

static void test_size_overflow(void)
{
	static int buf[4];
	pph_data_handle h;

	errno = 0;
	CU_ASSERT_PTR_NULL(pph_vector_create(SIZE_MAX / 2, sizeof(int)));
	CU_ASSERT_EQUAL(errno, EOVERFLOW);
	errno = 0;
	CU_ASSERT_PTR_NULL(pph_matrix_create((size_t)1 << 33, (size_t)1 << 33, 4));
	CU_ASSERT_EQUAL(errno, EOVERFLOW);
	errno = 0;
	CU_ASSERT_PTR_NULL(pph_matrix_create(2, SIZE_MAX / 2 + 2, 1));
	CU_ASSERT_EQUAL(errno, EOVERFLOW);
	CU_ASSERT_EQUAL(pph_vector_register(&h, buf, SIZE_MAX, 2), -EOVERFLOW);
	CU_ASSERT_EQUAL(pph_matrix_register(&h, buf, (size_t)1 << 40, 1 << 20, 1 << 20, 64),
			-EOVERFLOW);
	/* the bytes fit, the rows' span does not */
	CU_ASSERT_EQUAL(pph_matrix_register(&h, buf, 4, 1, SIZE_MAX / 2, 4), -EOVERFLOW);
	/* sizes that fit still work */
	{
		pph_vector *v = pph_vector_create(4, sizeof(int));

		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		pph_vector_destroy(v);
	}
}

/* A second unregister is refused: two later handles never share a slot. */
static void test_double_unregister(void)
{
	int a[8] = { 0 }, b[8] = { 0 }, c[8] = { 0 }, i;
	pph_data_handle ha, hb, hc;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&ha, a, 8, sizeof(int)), 0);
	pph_data_unregister(ha);
	pph_data_unregister(ha); /* refused, with a message */
	CU_ASSERT_EQUAL(pph_data_acquire(ha, PPH_R), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hb, b, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hc, c, 8, sizeof(int)), 0);
	CU_ASSERT_PTR_NOT_EQUAL(hb, hc);
	CU_ASSERT_EQUAL(inc(hb), 0);
	CU_ASSERT_EQUAL(inc(hb), 0);
	CU_ASSERT_EQUAL(inc(hc), 0);
	pph_data_unregister(hb);
	pph_data_unregister(hc);
	for (i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(b[i], 2);
		CU_ASSERT_EQUAL(c[i], 1);
	}
	pph_shutdown();
}

static void test_partition_twice(void)
{
	int x[10] = { 0 }, i;
	pph_data_handle h, blocks[2], again[5];

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 10, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(h, 2, blocks), 0);
	CU_ASSERT_EQUAL(pph_data_partition(h, 5, again), -EBUSY);
	CU_ASSERT_EQUAL(pph_data_partition(h, 2, NULL), -EINVAL);
	pph_data_unregister(h); /* refused while partitioned */
	CU_ASSERT_EQUAL(inc(blocks[0]), 0);
	CU_ASSERT_EQUAL(inc(blocks[1]), 0);
	pph_data_unpartition(h, 2, blocks);
	/* the parent is whole again: it can be used and partitioned */
	CU_ASSERT_EQUAL(inc(h), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(h, 5, again), 0);
	CU_ASSERT_EQUAL(inc(again[4]), 0);
	pph_data_unpartition(h, 5, again);
	pph_data_unregister(h);
	for (i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(x[i], i >= 8 ? 3 : 2);
	pph_shutdown();
}

/* Tasks on a partitioned handle or an unregistered one are refused at
 * submission (the blocks' results were partly lost: a task on the parent
 * wrote over them); a block is unregistered only by unpartitioning its
 * parent, with every block. */
static void misuse_partition_and_handles(void)
{
	int x[10] = { 0 }, y[4] = { 0 }, i, ok = 1;
	pph_data_handle h, g, blocks[2], others[2];
	static const enum pph_access rw = PPH_RW;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 10, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&g, y, 4, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(h, 2, blocks), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(g, 2, others), 0);
	CU_ASSERT_EQUAL(inc(blocks[0]), 0);
	CU_ASSERT_EQUAL(pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), -EBUSY);
	pph_data_unregister(blocks[1]);		/* a block: refused */
	pph_data_unpartition(h, 1, blocks);	/* not every block: refused */
	pph_data_unpartition(h, 2, others);	/* another handle's blocks: refused */
	CU_ASSERT_EQUAL(inc(blocks[1]), 0);	/* still usable */
	pph_data_unpartition(h, 2, blocks);
	pph_data_unpartition(h, 2, blocks);	/* not partitioned any more: said */
	pph_data_unpartition(g, 2, others);
	CU_ASSERT_EQUAL(inc(h), 0);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(inc(h), -EINVAL);	/* unregistered */
	pph_data_unregister(g);
	for (i = 0; i < 10; i++)
		ok &= x[i] == 2;
	CU_ASSERT_TRUE(ok);
}

static void test_partition_misuse(void)
{
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(test_stderr_count(misuse_partition_and_handles, "peppher: "), 6);
	pph_shutdown();
}

/* A task destroyed twice, or a detached one destroyed at all, is said and
 * left alone: its memory was handed out twice (two tasks from the next two
 * pph_task_create, and a double free at pph_shutdown). */
static void misuse_destroy(void)
{
	struct pph_task *t = pph_task_create(&inc_cl), *a, *b;
	int x[4] = { 0 };
	pph_data_handle h;

	pph_task_destroy(t);
	pph_task_destroy(t);
	a = pph_task_create(&inc_cl);
	b = pph_task_create(&inc_cl);
	CU_ASSERT_PTR_NOT_EQUAL(a, b);
	pph_task_destroy(a);
	pph_task_destroy(b);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 4, sizeof(int)), 0);
	t = pph_task_create(&inc_cl);
	pph_task_add_buffer(t, h, PPH_RW);
	pph_task_set_detached(t, 1);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	pph_task_destroy(t);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[0], 1);
	pph_stats_print(NULL); /* stderr */
}

static void test_destroy_twice(void)
{
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(test_stderr_count(misuse_destroy, "peppher: pph_task_destroy: "), 2);
	pph_shutdown();
}

/*
 * pph_shutdown while another thread submits: every submission accepted
 * runs, the others are refused (-ENODEV).  The submitter crashed in
 * dmda's queues freed under it, or had submissions accepted that never
 * ran (1,992 of 3.8 million).  Its tasks of 200 us in the last rounds,
 * far slower than it submits: pph_shutdown waited for the queue to drain
 * before it refused anything, and it never did (the process grew until
 * killed).
 */
struct racer {
	pph_data_handle h;
	unsigned long accepted;
	atomic_int started;
	const struct pph_codelet *cl;
};

static void k_inc_200us(void *buffers[], void *arg)
{
	struct timespec t = { 0, 200000 };

	nanosleep(&t, NULL);
	k_inc(buffers, arg);
}

static const struct pph_impl inc_200us_impls[] = { { PPH_ARCH_CPU, k_inc_200us, "inc_200us_cpu", 0 } };
static const struct pph_codelet inc_200us_cl = { "misuse_inc_200us", 1, inc_200us_impls,
						 PPH_MODEL_DEFAULT };

static void *submit_until_refused(void *arg)
{
	struct racer *r = arg;
	static const enum pph_access rw = PPH_RW;

	atomic_store(&r->started, 1);
	while (pph_call_async(r->cl, PPH_ALL_IMPLS, 1, &r->h, &rw, NULL, 0) == 0)
		r->accepted++;
	return NULL;
}

static void shutdown_while_submitting(void)
{
	int x = 0, round;
	pthread_t thread;

	for (round = 0; round < 7; round++) {
		struct racer r = { NULL, 0, 0, round < 5 ? &inc_cl : &inc_200us_cl };

		x = 0;
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		CU_ASSERT_EQUAL_FATAL(pph_vector_register(&r.h, &x, 1, sizeof(int)), 0);
		CU_ASSERT_EQUAL_FATAL(pthread_create(&thread, NULL, submit_until_refused, &r), 0);
		while (!atomic_load(&r.started))
			sched_yield();
		/* the slow rounds' accepted tasks run one after the other */
		usleep(round < 5 ? 2000 * (unsigned)round : 0);
		pph_shutdown();
		pthread_join(thread, NULL);
		CU_ASSERT_EQUAL((unsigned long)x, r.accepted);
		pph_data_unregister(r.h);
	}
}

static void test_shutdown_while_submitting(void)
{
	/* refused calls are said: kept off the test's output */
	test_stderr_count(shutdown_while_submitting, "");
}

static void k_nothing(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static const struct pph_impl no_fn[] = { { PPH_ARCH_CPU, NULL, "no_fn", 0 } };
static const struct pph_impl no_name[] = { { PPH_ARCH_CPU, k_nothing, NULL, 0 } };
static const struct pph_impl bad_arch[] = { { PPH_ARCH_CPU, k_nothing, "fine", 0 },
					    { (enum pph_arch)7, k_nothing, "bad", 0 } };
static const struct pph_codelet bad[] = {
	{ "misuse_no_fn", 1, no_fn, PPH_MODEL_DEFAULT },
	{ "misuse_no_name", 1, no_name, PPH_MODEL_DEFAULT },
	{ "misuse_bad_arch", 2, bad_arch, PPH_MODEL_DEFAULT },
	{ NULL, 1, inc_impls, PPH_MODEL_DEFAULT },
	{ "misuse_none", 0, inc_impls, PPH_MODEL_DEFAULT },
	{ "misuse_null_impls", 1, NULL, PPH_MODEL_DEFAULT },
};
/* what each is refused for (libpeppher-starpu says the same: failures.c) */
static const char *const bad_said[] = {
	"peppher: codelet misuse_no_fn has a variant without a function (variant 0): task not submitted",
	"peppher: codelet misuse_no_name has a variant without a name (variant 0): task not submitted",
	"peppher: codelet misuse_bad_arch has a variant of an unknown architecture (variant 1): task not submitted",
	"peppher: codelet (no name) has no name: task not submitted",
	"peppher: codelet misuse_none has no variant: task not submitted",
	"peppher: codelet misuse_null_impls has no variant: task not submitted",
};
static size_t bad_k;

static void call_bad(void)
{
	static const enum pph_access modes[1] = { PPH_RW };
	int x = 0;
	pph_data_handle h;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, &x, 1, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&bad[bad_k], PPH_ALL_IMPLS, 1, &h, modes, NULL, 0), -EINVAL);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x, 0);
}

static void test_null_arguments(void)
{
	static const enum pph_access modes[1] = { PPH_RW };
	int x[3] = { 0 }, parts[1] = { 2 }, i;
	pph_data_handle h;
	struct pph_task *t;
	size_t k;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 3, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(NULL, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_call_async(NULL, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, NULL, modes, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, NULL, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, modes, NULL, 4), -EINVAL);
	CU_ASSERT_EQUAL(pph_call_sync(&inc_cl, PPH_ALL_IMPLS, PPH_MAX_BUFFERS + 1, &h, modes,
				      NULL, 0), -E2BIG);
	CU_ASSERT_EQUAL(pph_call_partitioned(&inc_cl, PPH_ALL_IMPLS, 1, &h, modes, NULL, NULL, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(pph_call_partitioned(NULL, PPH_ALL_IMPLS, 1, &h, modes, parts, NULL, 0),
			-EINVAL);
	{
		pph_data_handle null_h = NULL;

		CU_ASSERT_EQUAL(pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &null_h, modes, NULL, 0),
				-EINVAL);
	}
	CU_ASSERT_PTR_NULL(pph_task_create(NULL));
	CU_ASSERT_EQUAL(pph_task_submit(NULL), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_wait(NULL), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_set_arg(NULL, x, 4), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_force_impl(NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_set_impl_mask(NULL, 1), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_impl_ran(NULL), -1);
	CU_ASSERT_EQUAL(pph_task_worker_ran(NULL), -1);
	pph_task_set_priority(NULL, 1);
	pph_task_set_callback(NULL, NULL, NULL);
	pph_task_set_detached(NULL, 1);
	pph_task_destroy(NULL);
	CU_ASSERT_EQUAL(pph_data_acquire(NULL, PPH_R), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_acquire(h, (enum pph_access)0), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_partition(NULL, 2, NULL), -EINVAL);
	t = pph_task_create(&inc_cl);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, NULL, PPH_R), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, (enum pph_access)8), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, (enum pph_access)(PPH_REDUX | PPH_R)), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_set_arg(t, NULL, 8), -EINVAL);
	pph_task_destroy(t);
	/* malformed codelets are refused at submission, said, nothing runs */
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		CU_ASSERT_EQUAL(pph_call_sync(&bad[k], PPH_ALL_IMPLS, 1, &h, modes, NULL, 0),
				-EINVAL);
		bad_k = k;
		CU_ASSERT_EQUAL(test_stderr_count(call_bad, bad_said[k]), 1);
	}
	/* and the runtime still works */
	CU_ASSERT_EQUAL(inc(h), 0);
	pph_data_unregister(h);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(x[i], 1);
	pph_shutdown();
}

static int shutdown_seen_running = -1;

static void k_shutdown(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	pph_shutdown(); /* refused: it would wait for this task */
	pph_task_wait_all(); /* the same, on a worker */
	shutdown_seen_running = pph_is_initialized();
}

static void test_shutdown_in_task(void)
{
	static const struct pph_impl si[] = { { PPH_ARCH_CPU, k_shutdown, "shutdown_cpu", 0 } };
	static const struct pph_codelet sc = { "misuse_shutdown", 1, si, PPH_MODEL_DEFAULT };
	int i, here = 0;

	/* tasks run in place on this thread too, once calibrated as tiny */
	setenv("PEPPHER_TINY_US", "1e9", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (i = 0; i < 8; i++) {
		struct pph_task *t = pph_task_create(&sc);

		shutdown_seen_running = -1;
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		CU_ASSERT_EQUAL(pph_task_wait(t), 0);
		here += pph_task_worker_ran(t) == PPH_WORKER_APPLICATION;
		pph_task_destroy(t);
		CU_ASSERT_EQUAL(shutdown_seen_running, 1);
		CU_ASSERT_TRUE(pph_is_initialized());
	}
	CU_ASSERT_TRUE(here > 0); /* both paths were taken */
	{
		int x[2] = { 0 };
		pph_data_handle h;

		pph_vector_register(&h, x, 2, sizeof(int));
		CU_ASSERT_EQUAL(inc(h), 0);
		pph_data_unregister(h);
		CU_ASSERT_EQUAL(x[1], 1);
	}
	pph_shutdown();
	CU_ASSERT_FALSE(pph_is_initialized());
	unsetenv("PEPPHER_TINY_US");
}

/* A variant that unregisters, partitions or destroys what its own task
 * holds, or destroys a task that waits for it: refused, or freed later
 * (each waited for its own task for good). */
static pph_data_handle self_h;
static pph_vector *self_v;
static int self_what, self_rc;

static void k_self(void *buffers[], void *arg)
{
	pph_data_handle blocks[2];
	struct pph_task *t;

	(void)buffers;
	(void)arg;
	switch (self_what) {
	case 0:
		pph_data_unregister(self_h);
		break;
	case 1:
		self_rc = pph_data_partition(self_h, 2, blocks);
		break;
	case 2:
		pph_vector_destroy(self_v);
		break;
	default: /* a task that writes what this one reads waits for it */
		t = pph_task_create(&inc_cl);
		pph_task_add_buffer(t, self_h, PPH_RW);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		self_rc = pph_task_wait(t);
		pph_task_destroy(t); /* freed when it ends */
		break;
	}
}

static const struct pph_impl self_impls[] = { { PPH_ARCH_CPU, k_self, "self_cpu", 0 } };
static const struct pph_codelet self_cl = { "misuse_self", 1, self_impls, PPH_MODEL_DEFAULT };

static void self_calls(void)
{
	int x[4] = { 0 }, k;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&self_h, x, 4, sizeof(int)), 0);
	self_v = pph_vector_create(4, sizeof(int));
	CU_ASSERT_PTR_NOT_NULL_FATAL(self_v);
	for (k = 0; k < 4; k++) {
		pph_data_handle h = k == 2 ? pph_container_use(&self_v->c, PPH_RW) : self_h;
		enum pph_access mode = k == 3 ? PPH_R : PPH_RW;

		self_what = k;
		self_rc = 0;
		CU_ASSERT_EQUAL(pph_call_sync(&self_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
		CU_ASSERT_EQUAL(self_rc, k == 1 || k == 3 ? -EDEADLK : 0);
	}
	pph_task_wait_all();
	CU_ASSERT_EQUAL(inc(self_h), 0); /* still registered, whole */
	pph_data_unregister(self_h);
	CU_ASSERT_EQUAL(x[0], 2);     /* the nested task's, then inc's */
	pph_vector_destroy(self_v);   /* still there */
}

static void test_self_use_in_variant(void)
{
	const char *const ncpu[] = { "2", "1" };
	int i;

	alarm(60); /* each hung */
	for (i = 0; i < 2; i++) {
		setenv("PEPPHER_NCPU", ncpu[i], 1);
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		CU_ASSERT_EQUAL(test_stderr_count(self_calls, "refused (-EDEADLK)"), 4);
		pph_shutdown();
	}
	unsetenv("PEPPHER_NCPU");
	alarm(0);
}

/* Unpartitioning with a block given twice (another left out, still in
 * use), or one partitioned itself: nothing done, the parent still
 * partitioned; the right call then works. */
static void unpartition_wrongly(void)
{
	int x[8] = { 0 };
	pph_data_handle h, b[2], twice[2], g[2];

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(h, 2, b), 0);
	CU_ASSERT_EQUAL(inc(b[1]), 0);
	twice[0] = twice[1] = b[0];
	pph_data_unpartition(h, 2, twice);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), -EBUSY);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(b[0], 2, g), 0);
	pph_data_unpartition(h, 2, b);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), -EBUSY);
	CU_ASSERT_EQUAL(inc(g[0]), 0);
	pph_data_unpartition(b[0], 2, g);
	pph_data_unpartition(h, 2, b);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_TRUE(x[0] == 1 && x[1] == 1 && x[2] == 0 && x[4] == 1 && x[7] == 1);
	pph_data_unregister(h);
}

static void test_unpartition_wrongly(void)
{
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(test_stderr_count(unpartition_wrongly, "nothing done"), 2);
	pph_shutdown();
}

/* A call with too many data, as an entry wrapper says it: the limit, not
 * strerror's "Argument list too long". */
static void too_many_data(void)
{
	pph_call_failed(&inc_cl, -E2BIG);
}

static void test_too_many_data_said(void)
{
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(test_stderr_count(too_many_data,
					  "call failed: more than 16 data (pointer and container parameters), the most a task takes"),
			1);
	pph_shutdown();
}

static int call_rc;

static void two_calls(void)
{
	int x[2] = { 5, 5 };
	pph_data_handle h;

	pph_vector_register(&h, x, 2, sizeof(int));
	call_rc = inc(h);
	pph_call_failed(&inc_cl, call_rc);
	call_rc |= inc(h) != -ENODEV;
	pph_call_failed(&inc_cl, inc(h));
	pph_data_unregister(h);
	/* the data is as it was */
	CU_ASSERT_EQUAL(x[0], 5);
}

static void init_with_bad_ncpu(void)
{
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
}

/* A call before pph_init says so, once; not "No such device". */
static void test_call_before_init(void)
{
	CU_ASSERT_FALSE_FATAL(pph_is_initialized());
	CU_ASSERT_EQUAL(test_stderr_count(two_calls, "call PEPPHER_INITIALIZE()"), 1);
	CU_ASSERT_EQUAL(call_rc, -ENODEV);
	CU_ASSERT_EQUAL(test_stderr_count(two_calls, "No such device"), 0);
}

/* The exit status of a child that runs PPH_INITIALIZE_OR_EXIT(). */
static int initialize_or_exit_status(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		PPH_INITIALIZE_OR_EXIT();
		pph_shutdown();
		_exit(0);
	}
	CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_failed_init(void)
{
	static const char *const bad[][2] = {
		{ "PEPPHER_NCPU", "abc" },
		{ "PEPPHER_NCPU", "-1" },
		/* as "2 " is: digits only */
		{ "PEPPHER_NCPU", " 2" },
		{ "PEPPHER_NCPU", "+2" },
		{ "PEPPHER_NOPENCL", " 0" },
		{ "PEPPHER_TINY_US", " 1" },
		{ "PEPPHER_SCHED", "fastest" },
		{ "PEPPHER_LIMIT_OPENCL_MEM", "-1" },
		{ "PEPPHER_LIMIT_CUDA_MEM", "-1" },
		{ "PEPPHER_LIMIT_OPENCL_MEM", "99999999999999999999" },
		{ "PEPPHER_LIMIT_OPENCL_MEM", "12MB" },
		{ "PEPPHER_CALIBRATE", "3" },
		{ "PEPPHER_TINY_US", "inf" },
		{ "PEPPHER_CUDA_WAIT", "fast" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv(bad[i][0], bad[i][1], 1);
		CU_ASSERT_EQUAL(pph_init(), -EINVAL);
		CU_ASSERT_FALSE(pph_is_initialized());
		/* a program stops, with status 1 */
		CU_ASSERT_EQUAL(initialize_or_exit_status(), 1);
		unsetenv(bad[i][0]);
	}
	/* the calls that follow give the reason, once */
	setenv("PEPPHER_NCPU", "abc", 1);
	CU_ASSERT_EQUAL(test_stderr_count(init_with_bad_ncpu, "PEPPHER_NCPU=abc"), 1);
	CU_ASSERT_EQUAL(test_stderr_count(two_calls, "did not start (PEPPHER_NCPU=abc"), 1);
	unsetenv("PEPPHER_NCPU");
	/* good values start */
	setenv("PEPPHER_LIMIT_OPENCL_MEM", "64", 1);
	CU_ASSERT_EQUAL(initialize_or_exit_status(), 0);
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_init(), -EALREADY);
	pph_shutdown();
	unsetenv("PEPPHER_LIMIT_OPENCL_MEM");
}

/* x[i] += 1 after 20 ms: still running when the test forks */
static void k_slow_inc(void *buffers[], void *arg)
{
	usleep(20000);
	k_inc(buffers, arg);
}

static const struct pph_impl slow_impls[] = { { PPH_ARCH_CPU, k_slow_inc, "slow_inc_cpu", 0 } };
static const struct pph_codelet slow_cl = { "misuse_slow_inc", 1, slow_impls, PPH_MODEL_DEFAULT };

static pph_data_handle fork_h, fork_busy;

static void child_calls(void)
{
	call_rc = inc(fork_h);
	pph_call_failed(&inc_cl, call_rc);
	call_rc |= inc(fork_h) != -ENODEV;
}

/*
 * LeakSanitizer asks this before its check at exit (scripts/sanitize): a
 * forked child holds the parent's tasks in flight, which it never runs;
 * their memory is the parent's, not a leak of the child's.
 */
static pid_t test_pid;
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return test_pid && getpid() != test_pid;
}

/*
 * What a child forked while the runtime runs finds: not running, its
 * pph_shutdown returning at once (it hung, destroying the queues the
 * parent's workers waited on), calls refused saying why.  Each failed
 * check sets a bit of the exit status; SIGALRM kills a hang.
 */
static int forked_child(const int *x)
{
	int failed = 0, rc;

	alarm(10);
	failed |= pph_is_initialized() << 0;
	pph_shutdown();
	failed |= (pph_worker_count() != 0) << 1;
	failed |= (test_stderr_count(child_calls, "refused in a forked child") != 1) << 2;
	failed |= (call_rc != -ENODEV || pph_failed_calls() != 1) << 3;
	/* host data no task of the parent's uses reads; the rest is refused */
	failed |= (pph_data_acquire(fork_h, PPH_R) != 0 || x[0] != 1) << 4;
	rc = pph_data_acquire(fork_busy, PPH_R);
	failed |= (rc != 0 && rc != -ENODEV) << 5;
	failed |= (rc == -ENODEV) << 7; /* not a failure: the task was still running */
	pph_data_unregister(fork_busy);
	pph_task_wait_all();
	failed |= (pph_init() != -EPERM || pph_is_initialized()) << 6;
	pph_shutdown();
	return failed;
}

static void test_fork(void)
{
	int x[4] = { 0 }, busy[4] = { 0 }, round, status, busy_refused = 0;
	static const enum pph_access rw = PPH_RW;
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&fork_h, x, 4, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&fork_busy, busy, 4, sizeof(int)), 0);
	CU_ASSERT_EQUAL(inc(fork_h), 0);
	for (round = 0; round < 20; round++) {
		/* idle workers asleep on their queues, or one running a task */
		if (round % 2)
			CU_ASSERT_EQUAL(pph_call_async(&slow_cl, PPH_ALL_IMPLS, 1, &fork_busy, &rw,
						       NULL, 0),
					0);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0 && round % 4 == 3)
			exit(forked_child(x)); /* atexit handlers and destructors too */
		if (pid == 0)
			_exit(forked_child(x));
		CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &status, 0) == pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1 << 7) {
			busy_refused++;
			status = 0;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fprintf(stderr, "round %d: child %s %d\n", round,
				WIFEXITED(status) ? "exited with" : "killed by signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		/* the parent goes on */
		CU_ASSERT_EQUAL(inc(fork_h), 0);
		CU_ASSERT_EQUAL(pph_data_acquire(fork_h, PPH_RW), 0);
		CU_ASSERT_EQUAL(x[0], 2);
		x[0] = 1;
	}
	pph_data_unregister(fork_h);
	pph_data_unregister(fork_busy);
	CU_ASSERT_EQUAL(busy[0], 10);
	CU_ASSERT_TRUE(busy_refused > 0);
	pph_shutdown();
	CU_ASSERT_FALSE(pph_is_initialized());
}

int main(void)
{
	CU_pSuite s;
	int failed;

	test_pid = getpid();
	if (!test_home_begin("misuse"))
		return 1;
	setenv("PEPPHER_NCPU", "2", 1);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("misuse", NULL, NULL);
	/* first: the runtime has never been started */
	CU_add_test(s, "a call before pph_init says so", test_call_before_init);
	CU_add_test(s, "sizes that overflow", test_size_overflow);
	CU_add_test(s, "a call with too many data is said so", test_too_many_data_said);
	CU_add_test(s, "a handle unregistered twice", test_double_unregister);
	CU_add_test(s, "a handle partitioned twice", test_partition_twice);
	CU_add_test(s, "tasks on partitioned and unregistered handles, blocks unpartitioned wrongly",
		    test_partition_misuse);
	CU_add_test(s, "a task destroyed twice, a detached one destroyed", test_destroy_twice);
	CU_add_test(s, "pph_shutdown while another thread submits", test_shutdown_while_submitting);
	CU_add_test(s, "NULL arguments and malformed codelets", test_null_arguments);
	CU_add_test(s, "pph_shutdown inside a task", test_shutdown_in_task);
	CU_add_test(s, "a failed initialisation stops the program", test_failed_init);
	CU_add_test(s, "a child forked while the runtime runs", test_fork);
	CU_add_test(s, "a variant using what its own task holds", test_self_use_in_variant);
	CU_add_test(s, "blocks unpartitioned twice over, or partitioned", test_unpartition_wrongly);
	failed = test_run_registry();
	if (test_home_end() != 0)
		failed = 1;
	return failed;
}
