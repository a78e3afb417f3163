/*
 * Unit tests of libpeppher, one suite per runtime source file covered.
 * Every result is checked against a sequential computation.
 */
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

#include "testutil.h"

/* ---- kernels ---- */

static atomic_int impl_a_runs, impl_b_runs;

/* slot[arg] += 1: each task touches its own slot of one shared vector */
static void k_increment(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);

	v[*(int *)arg] += 1;
}

static void k_mark_a(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&impl_a_runs, 1);
}

static void k_mark_b(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&impl_b_runs, 1);
}

/* x = 3x + i: the result depends on the order of the calls */
static void k_affine(void *buffers[], void *arg)
{
	long *x = PPH_VARIABLE_PTR(buffers[0]);

	*x = *x * 3 + *(int *)arg;
	*x %= 1000003;
}

/* dst[i] = src[i] */
static void k_copy(void *buffers[], void *arg)
{
	const int *src = PPH_VECTOR_PTR(buffers[0]);
	int *dst = PPH_VECTOR_PTR(buffers[1]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		dst[i] = src[i];
}

/* v[i] = value, after a pause so that a bad schedule would show */
static void k_fill_slow(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);
	struct timespec ts = { 0, 2000000 };
	size_t i;

	nanosleep(&ts, NULL);
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		v[i] = *(int *)arg;
}

/* two readers that must meet: only possible if they run concurrently */
static pthread_mutex_t meet_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t meet_cond = PTHREAD_COND_INITIALIZER;
static int meet_count, meet_ok;

static void k_meet(void *buffers[], void *arg)
{
	struct timespec deadline;

	(void)buffers;
	(void)arg;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 5;
	pthread_mutex_lock(&meet_lock);
	if (++meet_count == 2) {
		meet_ok = 1;
		pthread_cond_broadcast(&meet_cond);
	}
	while (meet_count < 2 &&
	       pthread_cond_timedwait(&meet_cond, &meet_lock, &deadline) == 0)
		;
	pthread_mutex_unlock(&meet_lock);
}

struct args3 {
	double a;
	int b;
	char c[5];
};

static void k_args(void *buffers[], void *arg)
{
	struct args3 *a = arg;
	double *out = PPH_VARIABLE_PTR(buffers[0]);

	*out = a->a * a->b + (double)strlen(a->c);
}

static const struct pph_impl increment_impls[] = {
	{ PPH_ARCH_CPU, k_increment, "increment" },
};
static const struct pph_codelet increment_cl = { "increment", 1, increment_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl two_impls[] = {
	{ PPH_ARCH_CPU, k_mark_a, "a" },
	{ PPH_ARCH_OPENMP, k_mark_b, "b" },
};
static const struct pph_codelet two_cl = { "two", 2, two_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl affine_impls[] = { { PPH_ARCH_CPU, k_affine, "affine" } };
static const struct pph_codelet affine_cl = { "affine", 1, affine_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl copy_impls[] = { { PPH_ARCH_CPU, k_copy, "copy" } };
static const struct pph_codelet copy_cl = { "copy", 1, copy_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl fill_impls[] = { { PPH_ARCH_CPU, k_fill_slow, "fill" } };
static const struct pph_codelet fill_cl = { "fill", 1, fill_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl meet_impls[] = { { PPH_ARCH_CPU, k_meet, "meet" } };
static const struct pph_codelet meet_cl = { "meet", 1, meet_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl args_impls[] = { { PPH_ARCH_CPU, k_args, "args" } };
static const struct pph_codelet args_cl = { "args", 1, args_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl cuda_impls[] = { { PPH_ARCH_CUDA, k_mark_a, "cuda_only" } };
static const struct pph_codelet cuda_cl = { "cuda_only", 1, cuda_impls, PPH_MODEL_DEFAULT };

static const char *sched_name = "dmda";

static int suite_init(void)
{
	setenv("PEPPHER_NCPU", "2", 1);
	setenv("PEPPHER_SCHED", sched_name, 1);
	return pph_init();
}

static int suite_clean(void)
{
	pph_shutdown();
	return 0;
}

/* submit a task with one buffer and an int argument */
static struct pph_task *task1(const struct pph_codelet *cl, pph_data_handle h,
			      enum pph_access mode, int arg, int detached)
{
	struct pph_task *t = pph_task_create(cl);

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, mode), 0);
	CU_ASSERT_EQUAL(pph_task_set_arg(t, &arg, sizeof(arg)), 0);
	pph_task_set_detached(t, detached);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	return t;
}

/* ---- task.c ---- */

#define NTASKS 10000

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

static void test_sync_call(void)
{
	double out = 0;
	struct args3 a = { 1.5, 4, "abc" };
	pph_data_handle h;
	enum pph_access mode = PPH_W;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h, &out, sizeof(out)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&args_cl, PPH_ALL_IMPLS, 1, &h, &mode, &a, sizeof(a)), 0);
	CU_ASSERT_DOUBLE_EQUAL(out, 9.0, 1e-12);
	pph_data_unregister(h);
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

/* Fork-join: an OPENMP variant has the CPU workers of its team to itself
 * (the suites run 2 CPU workers: a team of 2 is all of them). */
static atomic_int team_cpu_running, team_running, team_violations, team_cpu_runs, team_runs;

static void spin_us(double us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3 < us);
}

static void k_team_member(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&team_cpu_running, 1);
	if (atomic_load(&team_running))
		atomic_fetch_add(&team_violations, 1);
	spin_us(30);
	atomic_fetch_add(&team_cpu_runs, 1);
	atomic_fetch_sub(&team_cpu_running, 1);
}

static void k_team(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	int threads = pph_openmp_threads();

	if (threads < 1 || threads > 2)
		atomic_fetch_add(&team_violations, 1);
	if (threads == 2) {
		atomic_store(&team_running, 1);
		if (atomic_load(&team_cpu_running))
			atomic_fetch_add(&team_violations, 1);
	}
	spin_us(100);
	atomic_fetch_add(&team_runs, 1);
	atomic_store(&team_running, 0);
}

static const struct pph_impl team_impls[] = {
	{ PPH_ARCH_CPU, k_team_member, "member" },
	{ PPH_ARCH_OPENMP, k_team, "team" },
};
static const struct pph_codelet team_cl = { "team", 2, team_impls, PPH_MODEL_DEFAULT };

static void test_fork_join(void)
{
	int i;

	atomic_store(&team_violations, 0);
	atomic_store(&team_runs, 0);
	atomic_store(&team_cpu_runs, 0);
	for (i = 0; i < 300; i++) {
		struct pph_task *t = pph_task_create(&team_cl);

		pph_task_force_impl(t, i % 10 == 0);
		pph_task_set_detached(t, 1);
		CU_ASSERT_EQUAL_FATAL(pph_task_submit(t), 0);
	}
	pph_task_wait_all();
	CU_ASSERT_EQUAL(atomic_load(&team_runs), 30);
	CU_ASSERT_EQUAL(atomic_load(&team_cpu_runs), 270);
	CU_ASSERT_EQUAL(atomic_load(&team_violations), 0);
}

/* dmda gives a fork-join variant the team size its history says is best:
 * all the workers to one that scales, one worker to one that does not. */
static atomic_int team_size_runs[3];

static void k_scales(void *buffers[], void *arg)
{
	int threads = pph_openmp_threads();

	(void)buffers;
	(void)arg;
	atomic_fetch_add(&team_size_runs[threads <= 2 ? threads : 0], 1);
	/* 240 us alone, 30 with 2: far apart and short, so that one
	 * calibration run slowed by the machine does not turn the choice */
	spin_us(240.0 / (threads * threads * threads));
}

static void k_does_not_scale(void *buffers[], void *arg)
{
	int threads = pph_openmp_threads();

	(void)buffers;
	(void)arg;
	atomic_fetch_add(&team_size_runs[threads <= 2 ? threads : 0], 1);
	spin_us(30.0 * threads * threads * threads); /* 30 us alone, 240 with 2 */
}

/* one codelet (one history) per attempt: see test_dmda_team_size */
static const struct pph_impl scales_impls[] = { { PPH_ARCH_OPENMP, k_scales, "scales" } };
static const struct pph_codelet scales_cl[3] = {
	{ "scales", 1, scales_impls, PPH_MODEL_DEFAULT },
	{ "scales_again", 1, scales_impls, PPH_MODEL_DEFAULT },
	{ "scales_third", 1, scales_impls, PPH_MODEL_DEFAULT },
};
static const struct pph_impl flat_impls[] = { { PPH_ARCH_OPENMP, k_does_not_scale, "flat" } };
static const struct pph_codelet flat_cl[3] = {
	{ "flat", 1, flat_impls, PPH_MODEL_DEFAULT },
	{ "flat_again", 1, flat_impls, PPH_MODEL_DEFAULT },
	{ "flat_third", 1, flat_impls, PPH_MODEL_DEFAULT },
};

static void team_size_calls(const struct pph_codelet *cl, int n)
{
	int i;

	memset(team_size_runs, 0, sizeof(team_size_runs));
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(pph_call_sync(cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
}

/*
 * Calibrate a fresh history (3 runs of each team size, 1 and 2), then
 * count the calls of 20 that got the given team size.  A calibration run
 * the machine stalls (a time slice lost: 1 ms against 30 us) can make
 * the history say the wrong size is best, and dmda rightly follows it.
 * So up to three attempts, each with a history of its own; a scheduler
 * that ignored the history fails all three.
 */
static int best_team_chosen(const struct pph_codelet cls[3], int best)
{
	int attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		team_size_calls(&cls[attempt], 6);
		CU_ASSERT_EQUAL(atomic_load(&team_size_runs[1]), 3);
		CU_ASSERT_EQUAL(atomic_load(&team_size_runs[2]), 3);
		team_size_calls(&cls[attempt], 20);
		CU_ASSERT_EQUAL(atomic_load(&team_size_runs[0]), 0);
		if (atomic_load(&team_size_runs[best]) == 20)
			return 1;
		fprintf(stderr, "%s: %d of 20 calls with %d threads, after a calibration the "
			"machine may have stalled; again with a fresh history\n",
			cls[attempt].name, atomic_load(&team_size_runs[best]), best);
	}
	return 0;
}

static void test_dmda_team_size(void)
{
	CU_ASSERT_TRUE(best_team_chosen(scales_cl, 2));
	CU_ASSERT_TRUE(best_team_chosen(flat_cl, 1));
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

static void test_unforced_uses_all(void)
{
	int i;

	atomic_store(&impl_a_runs, 0);
	atomic_store(&impl_b_runs, 0);
	for (i = 0; i < 100; i++) {
		struct pph_task *t = pph_task_create(&two_cl);

		pph_task_set_detached(t, 1);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	}
	pph_task_wait_all();
	CU_ASSERT_EQUAL(atomic_load(&impl_a_runs) + atomic_load(&impl_b_runs), 100);
	CU_ASSERT_TRUE(atomic_load(&impl_a_runs) > 0);
	CU_ASSERT_TRUE(atomic_load(&impl_b_runs) > 0);
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

static const struct pph_impl gate_impls[] = { { PPH_ARCH_CPU, k_gate, "gate" } };
static const struct pph_codelet gate_cl = { "gate", 1, gate_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl log_impls[] = { { PPH_ARCH_CPU, k_log, "log" } };
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

static const struct pph_impl count_impls[] = { { PPH_ARCH_CPU, k_count, "count" } };
static const struct pph_codelet count_cl = { "count", 1, count_impls, PPH_MODEL_DEFAULT };
static pph_data_handle shared_h; /* every thread counts there too */

/* Reads the shared count into a chain's value, times 0: two handles, one
 * of them written by the other threads meanwhile. */
static void k_peek(void *buffers[], void *arg)
{
	(void)arg;
	*(long *)PPH_VARIABLE_PTR(buffers[0]) += 0 * *(long *)PPH_VARIABLE_PTR(buffers[1]);
}

static const struct pph_impl peek_impls[] = { { PPH_ARCH_CPU, k_peek, "peek" } };
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

/* ---- data.c ---- */

/* m[i][j] += 100 * i + j over the rows x cols block */
static void k_matrix(void *buffers[], void *arg)
{
	int *m = PPH_MATRIX_PTR(buffers[0]);
	size_t i, j, ld = PPH_MATRIX_LD(buffers[0]);

	(void)arg;
	for (i = 0; i < PPH_MATRIX_ROWS(buffers[0]); i++)
		for (j = 0; j < PPH_MATRIX_COLS(buffers[0]); j++)
			m[i * ld + j] += (int)(100 * i + j);
}

static const struct pph_impl matrix_impls[] = { { PPH_ARCH_CPU, k_matrix, "matrix" } };
static const struct pph_codelet matrix_cl = { "matrix", 1, matrix_impls, PPH_MODEL_DEFAULT };

static void test_matrix_block(void)
{
	int m[6][8] = { { 0 } }, ok = 1;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	size_t i, j;

	CU_ASSERT_EQUAL(pph_matrix_register(&h, m, 3, 9, 8, sizeof(int)), -EINVAL);
	/* the 3 x 4 block at row 2, column 3 of a 6 x 8 matrix */
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&h, &m[2][3], 3, 4, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&matrix_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
	pph_data_unregister(h);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++) {
			int in = i >= 2 && i < 5 && j >= 3 && j < 7;

			ok &= m[i][j] == (in ? (int)(100 * (i - 2) + (j - 3)) : 0);
		}
	CU_ASSERT_TRUE(ok);
}

/* ---- deps.c ---- */

static void test_raw_chain(void)
{
	long x = 1, ref = 1;
	pph_data_handle h;
	int i;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h, &x, sizeof(x)), 0);
	for (i = 0; i < 20000; i++) {
		task1(&affine_cl, h, PPH_RW, i, 1);
		ref = (ref * 3 + i) % 1000003;
	}
	pph_data_unregister(h); /* waits for the chain */
	CU_ASSERT_EQUAL(x, ref);
}

static void test_war(void)
{
	enum { N = 64, ROUNDS = 50 };
	int src[N], copies[ROUNDS][N];
	pph_data_handle hs, hc[ROUNDS];
	int r, i, ok = 1;

	for (i = 0; i < N; i++)
		src[i] = -1;
	pph_vector_register(&hs, src, N, sizeof(int));
	for (r = 0; r < ROUNDS; r++) {
		struct pph_task *t = pph_task_create(&copy_cl);

		pph_vector_register(&hc[r], copies[r], N, sizeof(int));
		pph_task_add_buffer(t, hs, PPH_R);
		pph_task_add_buffer(t, hc[r], PPH_W);
		pph_task_set_detached(t, 1);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		/* the next writer must wait for this reader (write after read) */
		task1(&fill_cl, hs, PPH_W, r, 1);
	}
	pph_task_wait_all();
	for (r = 0; r < ROUNDS; r++) {
		pph_data_unregister(hc[r]);
		for (i = 0; i < N; i++)
			ok &= copies[r][i] == r - 1;
	}
	pph_data_unregister(hs);
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(src[0], ROUNDS - 1);
}

static void test_waw(void)
{
	int v[8] = { 0 };
	pph_data_handle h;
	int r;

	pph_vector_register(&h, v, 8, sizeof(int));
	for (r = 1; r <= 30; r++)
		task1(&fill_cl, h, PPH_W, r, 1);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(v[0], 30);
	CU_ASSERT_EQUAL(v[7], 30);
}

static void test_readers_concurrent(void)
{
	int v = 0;
	pph_data_handle h;

	meet_count = meet_ok = 0;
	pph_vector_register(&h, &v, 1, sizeof(v));
	task1(&meet_cl, h, PPH_R, 0, 1);
	task1(&meet_cl, h, PPH_R, 0, 1);
	pph_task_wait_all();
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(meet_ok, 1);
}

static void test_same_handle_twice(void)
{
	int a[16], b[16];
	pph_data_handle h;
	struct pph_task *t = pph_task_create(&copy_cl);
	int i;

	for (i = 0; i < 16; i++)
		a[i] = i;
	memcpy(b, a, sizeof(b));
	pph_vector_register(&h, a, 16, sizeof(int));
	/* read and write of one handle: must not wait for itself */
	pph_task_add_buffer(t, h, PPH_R);
	pph_task_add_buffer(t, h, PPH_W);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	CU_ASSERT_EQUAL(pph_task_wait(t), 0);
	pph_task_destroy(t);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
}


/* ---- random task graphs, every scheduler ---- */

#define RG_HANDLES 16
#define RG_MAXBUF 3

struct rg_arg {
	unsigned id, n;
	enum pph_access modes[RG_MAXBUF];
};

/* reads fold into acc; then every written buffer gets a value of acc */
static void rg_apply(long *v[], const struct rg_arg *a)
{
	long acc = (long)a->id;
	unsigned i;

	for (i = 0; i < a->n; i++)
		if (a->modes[i] & PPH_R)
			acc = (acc * 31 + *v[i]) % 1000003;
	for (i = 0; i < a->n; i++)
		if (a->modes[i] & PPH_W)
			*v[i] = (acc + 7 * (long)i) % 1000003;
}

static void k_rg(void *buffers[], void *arg)
{
	const struct rg_arg *a = arg;
	long *v[RG_MAXBUF];
	unsigned i;

	for (i = 0; i < a->n; i++)
		v[i] = PPH_VARIABLE_PTR(buffers[i]);
	rg_apply(v, a);
}

static const struct pph_impl rg_impls[] = {
	{ PPH_ARCH_CPU, k_rg, "rg_a" },
	{ PPH_ARCH_CPU, k_rg, "rg_b" },
};
static const struct pph_codelet rg_cl = { "random_graph", 2, rg_impls, PPH_MODEL_DEFAULT };

static void test_random_graph(void)
{
	const unsigned ntasks = 100000; /* also in quick mode */
	long val[RG_HANDLES], ref[RG_HANDLES];
	pph_data_handle h[RG_HANDLES];
	unsigned t, i, j, seed = 12345;

	for (i = 0; i < RG_HANDLES; i++) {
		val[i] = ref[i] = i;
		pph_variable_register(&h[i], &val[i], sizeof(long));
	}
	for (t = 0; t < ntasks; t++) {
		struct rg_arg a = { t, 1 + rand_r(&seed) % RG_MAXBUF, { 0 } };
		unsigned pick[RG_MAXBUF];
		long *r[RG_MAXBUF];
		struct pph_task *task = pph_task_create(&rg_cl);

		for (i = 0; i < a.n; i++) {
			do {
				pick[i] = (unsigned)rand_r(&seed) % RG_HANDLES;
				for (j = 0; j < i && pick[j] != pick[i]; j++)
					;
			} while (j < i);
			a.modes[i] = (enum pph_access)(1 + rand_r(&seed) % 3);
			pph_task_add_buffer(task, h[pick[i]], a.modes[i]);
			r[i] = &ref[pick[i]];
		}
		rg_apply(r, &a);
		pph_task_set_arg(task, &a, sizeof(a));
		pph_task_set_detached(task, 1);
		CU_ASSERT_EQUAL_FATAL(pph_task_submit(task), 0);
	}
	pph_task_wait_all();
	for (i = 0; i < RG_HANDLES; i++)
		pph_data_unregister(h[i]);
	CU_ASSERT_EQUAL(memcmp(val, ref, sizeof(val)), 0);
}

/* ---- dmda: the faster variant wins once calibrated ---- */

static void k_sleep_slow(void *buffers[], void *arg)
{
	struct timespec ts = { 0, 3000000 };

	(void)buffers;
	(void)arg;
	nanosleep(&ts, NULL);
	atomic_fetch_add(&impl_a_runs, 1);
}

static void k_sleep_fast(void *buffers[], void *arg)
{
	struct timespec ts = { 0, 200000 };

	(void)buffers;
	(void)arg;
	nanosleep(&ts, NULL);
	atomic_fetch_add(&impl_b_runs, 1);
}

static const struct pph_impl pair_impls[] = {
	{ PPH_ARCH_CPU, k_sleep_slow, "slow" },
	{ PPH_ARCH_CPU, k_sleep_fast, "fast" },
};
static const struct pph_codelet pair_cl = { "slow_fast_pair", 2, pair_impls, PPH_MODEL_DEFAULT };

static void test_dmda_picks_faster(void)
{
	int v = 0, i, fast_after = 0;
	pph_data_handle h;

	pph_vector_register(&h, &v, 1, sizeof(v));
	atomic_store(&impl_a_runs, 0);
	atomic_store(&impl_b_runs, 0);
	for (i = 0; i < 40; i++) {
		struct pph_task *t = task1(&pair_cl, h, PPH_RW, i, 0);

		pph_task_wait(t);
		if (i >= 20)
			fast_after += pph_task_impl_ran(t) == 1;
		pph_task_destroy(t);
	}
	pph_data_unregister(h);
	/* each variant was calibrated, then only the fast one ran */
	CU_ASSERT_EQUAL(atomic_load(&impl_a_runs), 3);
	CU_ASSERT_EQUAL(fast_after, 20);
}

/* ---- init.c ---- */

static void test_init_twice(void)
{
	CU_ASSERT_EQUAL(pph_init(), -EALREADY);
	pph_shutdown();
	CU_ASSERT_FALSE(pph_is_initialized());
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 2);
	pph_shutdown();
	setenv("PEPPHER_NCPU", "3", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 3);
	pph_shutdown();
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void test_bad_environment(void)
{
	struct pph_task *t;

	pph_shutdown();
	t = pph_task_create(&two_cl);
	CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV); /* not initialized */
	pph_task_destroy(t);
	setenv("PEPPHER_SCHED", "bogus", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_SCHED", sched_name, 1);
	setenv("PEPPHER_NCPU", "zero", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_NCPU", "2", 1);
	setenv("PEPPHER_UNDEFERRED", "maybe", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* ---- submit.c: tasks run at submission ---- */

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

static const struct pph_impl hold_impls[] = { { PPH_ARCH_CPU, k_hold, "hold" } };
static const struct pph_codelet hold_cl = { "hold", 1, hold_impls, PPH_MODEL_DEFAULT };

static void k_bump(void *buffers[], void *arg)
{
	(void)arg;
	(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}

static const struct pph_impl bump_impls[] = {
	{ PPH_ARCH_CPU, k_bump, "bump" },
	{ PPH_ARCH_CPU, k_bump, "bump_too" },
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
	{ PPH_ARCH_CPU, k_tiny, "tiny" },
	{ PPH_ARCH_CPU, k_tiny, "tiny_too" },
};
static const struct pph_codelet tiny_cl = { "tiny", 1, tiny_impls, PPH_MODEL_DEFAULT };
static const struct pph_codelet tiny2_cl = { "tiny2", 2, tiny_impls, PPH_MODEL_DEFAULT };

/* holds with two variants: never run at submission, however tiny the
 * threshold makes them */
static const struct pph_impl hold2_impls[] = {
	{ PPH_ARCH_CPU, k_hold, "hold" },
	{ PPH_ARCH_CPU, k_hold, "hold_too" },
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

static const struct pph_impl nest_impls[] = { { PPH_ARCH_CPU, k_nest, "nest" } };
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

static void test_tiny(void)
{
	/* every calibrated variant counts as tiny: no timing in this test */
	pph_shutdown();
	setenv("PEPPHER_TINY_US", "1e9", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(tiny_count(&tiny_cl), 20);
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

/* ---- stats.c ---- */

static void test_stats(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	struct pph_task *t;

	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	t = pph_task_create(&two_cl);
	pph_task_force_impl(t, 1);
	pph_task_submit(t);
	pph_task_wait(t);
	pph_task_destroy(t);
	fp = open_memstream(&buf, &len);
	pph_stats_print(fp);
	fclose(fp);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 0 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 1 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    two/b: 1 tasks, "));
	CU_ASSERT_PTR_NULL(strstr(buf, "two/a"));
	free(buf);
}

static int init_eager(void) { sched_name = "eager"; return suite_init(); }
static int init_ws(void) { sched_name = "ws"; return suite_init(); }
static int init_dmda(void) { sched_name = "dmda"; return suite_init(); }

/* PEPPHER_CALIBRATE=2: start from empty performance models */
static int init_fresh_dmda(void)
{
	setenv("PEPPHER_CALIBRATE", "2", 1);
	sched_name = "dmda";
	return suite_init();
}

static int clean_fresh(void)
{
	pph_shutdown();
	unsetenv("PEPPHER_CALIBRATE");
	return 0;
}

/* The task and dependency suites, under one scheduler. */
static void add_scheduler_suites(const char *name, int (*init)(void))
{
	static char titles[8][32]; /* CUnit keeps the names */
	static unsigned ntitles;
	char *title;
	CU_pSuite s;

	title = titles[ntitles++];
	snprintf(title, sizeof(titles[0]), "task [%s]", name);
	s = CU_add_suite(title, init, suite_clean);
	CU_add_test(s, "each of 10000 tasks runs once", test_each_task_once);
	CU_add_test(s, "wait for one task", test_wait_one);
	CU_add_test(s, "synchronous call", test_sync_call);
	CU_add_test(s, "argument block is copied", test_arg_is_copied);
	CU_add_test(s, "forced variants", test_forced_impls);
	CU_add_test(s, "variant masks", test_impl_mask);
	CU_add_test(s, "fork-join OpenMP variants", test_fork_join);
	CU_add_test(s, "callbacks", test_callbacks);
	CU_add_test(s, "no worker for the variant", test_no_worker_for_variant);
	CU_add_test(s, "bad buffers", test_bad_buffers);
	CU_add_test(s, "priorities", test_priorities);
	CU_add_test(s, "several application threads submit", test_threads_submit);
	CU_add_test(s, "matrix block with a leading dimension", test_matrix_block);
	title = titles[ntitles++];
	snprintf(title, sizeof(titles[0]), "deps [%s]", name);
	s = CU_add_suite(title, init, suite_clean);
	CU_add_test(s, "read after write chain", test_raw_chain);
	CU_add_test(s, "write after read", test_war);
	CU_add_test(s, "write after write", test_waw);
	CU_add_test(s, "readers run concurrently", test_readers_concurrent);
	CU_add_test(s, "same handle twice in a task", test_same_handle_twice);
	CU_add_test(s, "random graph equals sequential run", test_random_graph);
}

/* ---- trace.c ---- */

static unsigned count_substr(const char *s, const char *sub)
{
	unsigned n = 0;

	while ((s = strstr(s, sub))) {
		n++;
		s += strlen(sub);
	}
	return n;
}

static void test_trace(void)
{
	char path[] = "/tmp/peppher-trace-XXXXXX";
	int fd = mkstemp(path), i;
	char buf[65536];
	size_t len;
	FILE *fp;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	pph_shutdown();
	setenv("PEPPHER_TRACE", path, 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (i = 0; i < 5; i++) {
		struct pph_task *t = pph_task_create(&two_cl);

		pph_task_force_impl(t, 1);
		pph_task_set_detached(t, 1);
		pph_task_submit(t);
	}
	pph_shutdown();
	unsetenv("PEPPHER_TRACE");
	fp = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	len = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[len] = '\0';
	fclose(fp);
	unlink(path);
	CU_ASSERT_EQUAL(strncmp(buf, "{\"traceEvents\":[\n", 17), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n],\"displayTimeUnit\":\"ms\"}\n"));
	CU_ASSERT_EQUAL(count_substr(buf, "\"ph\":\"X\""), 5);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"two/b\""), 5);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"thread_name\""), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"args\":{\"name\":\"worker 1 (CPU)\"}"));
	CU_ASSERT_EQUAL(pph_init(), 0);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	/* performance models of this run only, whatever PEPPHER_HOME says */
	if (!test_home_begin("test"))
		return 1;
	setenv("PEPPHER_NOPENCL", "0", 1); /* CPU workers only: see test_data */
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	add_scheduler_suites("eager", init_eager);
	add_scheduler_suites("ws", init_ws);
	add_scheduler_suites("dmda", init_dmda);
	s = CU_add_suite("sched_eager", init_eager, suite_clean);
	CU_add_test(s, "unforced calls use every variant", test_unforced_uses_all);
	CU_add_test(s, "undeferred tasks beyond the backlog", test_undeferred);
	CU_add_test(s, "tiny tasks run at submission", test_tiny);
	s = CU_add_suite("sched_dmda", init_fresh_dmda, clean_fresh);
	CU_add_test(s, "unforced calls use every variant", test_unforced_uses_all);
	CU_add_test(s, "faster variant chosen after calibration", test_dmda_picks_faster);
	CU_add_test(s, "fork-join team size chosen from history", test_dmda_team_size);
	s = CU_add_suite("init", init_dmda, suite_clean);
	CU_add_test(s, "init and shutdown again", test_init_twice);
	CU_add_test(s, "bad environment", test_bad_environment);
	s = CU_add_suite("stats", init_dmda, suite_clean);
	CU_add_test(s, "variants per worker", test_stats);
	s = CU_add_suite("trace", init_dmda, suite_clean);
	CU_add_test(s, "Chrome trace events", test_trace);
	failed = test_run_registry();
	return test_home_end() != 0 || failed;
}
