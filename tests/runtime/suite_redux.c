/* Unit tests of runtime/redux.c: the reduction access mode (PPH_REDUX). */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "suites.h"
#include "testutil.h"

#define NBLOCKS 8

/* Blocks running now, and the most seen at once. */
static atomic_int running, most;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* acc += x . y over a block; each block waits (2 s at most, for a loaded
 * machine) until two have run at once: blocks serialised on the result
 * would never see another one running.  Each is busy 20 us first: once a
 * call's blocks ran together, the next call's took 0.1-0.2 us, and the
 * model then called them tiny (PEPPHER_TINY_US, 0.2 us), which the
 * submitting thread runs in place one after another, rightly: the next
 * suite's blocks waited 2 s each, alone (seen once in CI). */
static void k_dot(void *buffers[], void *arg)
{
	const long *x = PPH_VECTOR_PTR(buffers[0]), *y = PPH_VECTOR_PTR(buffers[1]);
	long *acc = PPH_VARIABLE_PTR(buffers[2]);
	double t0 = now_us();
	int now = atomic_fetch_add(&running, 1) + 1, seen = atomic_load(&most);
	size_t i;

	(void)arg;
	spin_us(20);
	while (now > seen && !atomic_compare_exchange_weak(&most, &seen, now))
		;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		*acc += x[i] * y[i];
	while (atomic_load(&most) < 2 && now_us() - t0 < 2e6)
		spin_us(100);
	atomic_fetch_sub(&running, 1);
}

static const struct pph_impl dot_impls[] = { { PPH_ARCH_CPU, k_dot, "cpu", 0 } };
static const struct pph_codelet dot_cl = { "redux_dot", 1, dot_impls, PPH_MODEL_DEFAULT };

/* A partitioned dot product into one variable: exact, and its blocks run
 * concurrently (not serialised on the result). */
static void test_partitioned_dot(void)
{
	enum { N = 1000 };
	long *x = malloc(N * sizeof(long)), *y = malloc(N * sizeof(long)), dot = 7, want = 7;
	pph_data_handle h[3];
	enum pph_access modes[3] = { PPH_R, PPH_R, PPH_REDUX };
	int parts[3] = { NBLOCKS, NBLOCKS, -1 };
	size_t i;

	for (i = 0; i < N; i++) {
		x[i] = (long)(i % 17) - 8;
		y[i] = (long)(i % 5) + 1;
		want += x[i] * y[i];
	}
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[0], x, N, sizeof(long)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[1], y, N, sizeof(long)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[2], &dot, sizeof(dot)), 0);
	CU_ASSERT_EQUAL(pph_data_set_reduction(h[2], pph_reduction_builtin(PPH_REDUCTION_SUM,
									    PPH_TYPE_LONG)),
			0);
	atomic_store(&most, 0);
	CU_ASSERT_EQUAL(pph_call_partitioned(&dot_cl, PPH_ALL_IMPLS, 3, h, modes, parts, NULL, 0),
			0);
	CU_ASSERT_EQUAL(pph_data_acquire(h[2], PPH_R), 0);
	CU_ASSERT_EQUAL(dot, want);
	CU_ASSERT(atomic_load(&most) >= 2);
	/* a second call adds on the value combined */
	CU_ASSERT_EQUAL(pph_call_partitioned(&dot_cl, PPH_ALL_IMPLS, 3, h, modes, parts, NULL, 0),
			0);
	pph_data_unregister(h[2]);
	CU_ASSERT_EQUAL(dot, 2 * want - 7);
	pph_data_unregister(h[0]);
	pph_data_unregister(h[1]);
	free(x);
	free(y);
}

/* acc (float) += the block's values */
static void k_fsum(void *buffers[], void *arg)
{
	const float *v = PPH_VECTOR_PTR(buffers[0]);
	float *acc = PPH_VARIABLE_PTR(buffers[1]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		*acc += v[i];
}

static const struct pph_impl fsum_impls[] = { { PPH_ARCH_CPU, k_fsum, "cpu", 0 } };
static const struct pph_codelet fsum_cl = { "redux_fsum", 1, fsum_impls, PPH_MODEL_DEFAULT };

static float fsum_once(pph_data_handle v)
{
	float s = 0;
	pph_data_handle h[2] = { v, NULL };
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	int parts[2] = { 16, -1 };

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[1], &s, sizeof(s)), 0);
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_FLOAT));
	CU_ASSERT_EQUAL(pph_call_partitioned(&fsum_cl, PPH_ALL_IMPLS, 2, h, modes, parts, NULL, 0),
			0);
	pph_data_unregister(h[1]);
	return s;
}

/* Floats: the sequential sum within rounding, and the same bits every time
 * (combined in submission order, whoever ran what). */
static void test_float_sum_deterministic(void)
{
	enum { N = 4096 };
	float *v = malloc(N * sizeof(float)), first;
	double want = 0;
	pph_data_handle h;
	size_t i;
	int k;

	for (i = 0; i < N; i++) {
		v[i] = 1.0f / (float)(i + 1);
		want += v[i];
	}
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, N, sizeof(float)), 0);
	first = fsum_once(h);
	CU_ASSERT_DOUBLE_EQUAL(first, want, 1e-4 * want);
	for (k = 0; k < 5; k++)
		CU_ASSERT(memcmp(&(float){ fsum_once(h) }, &first, sizeof(float)) == 0);
	pph_data_unregister(h);
	free(v);
}

/* acc = min (or max) of acc and the block: which one is the argument */
static void k_minmax(void *buffers[], void *arg)
{
	const int *v = PPH_VECTOR_PTR(buffers[0]);
	int *acc = PPH_VARIABLE_PTR(buffers[1]);
	size_t i;

	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		if (*(const int *)arg ? v[i] > *acc : v[i] < *acc)
			*acc = v[i];
}

static const struct pph_impl minmax_impls[] = { { PPH_ARCH_CPU, k_minmax, "cpu", 0 } };
static const struct pph_codelet minmax_cl = { "redux_minmax", 1, minmax_impls,
					      PPH_MODEL_DEFAULT };

static void test_min_max(void)
{
	enum { N = 999 };
	int *v = malloc(N * sizeof(int)), lo = 0, hi = 0, is_max;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	int parts[2] = { 7, -1 };
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = (int)((i * 7919) % 1000) - 300; /* from -300 to 699 */
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[0], v, N, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[1], &lo, sizeof(lo)), 0);
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_MIN, PPH_TYPE_INT));
	is_max = 0;
	CU_ASSERT_EQUAL(pph_call_partitioned(&minmax_cl, PPH_ALL_IMPLS, 2, h, modes, parts,
					     &is_max, sizeof(is_max)),
			0);
	pph_data_unregister(h[1]);
	CU_ASSERT_EQUAL(lo, -300);

	hi = 1000; /* the data takes part: max(1000, ...) */
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[1], &hi, sizeof(hi)), 0);
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_MAX, PPH_TYPE_INT));
	is_max = 1;
	CU_ASSERT_EQUAL(pph_call_partitioned(&minmax_cl, PPH_ALL_IMPLS, 2, h, modes, parts,
					     &is_max, sizeof(is_max)),
			0);
	pph_data_unregister(h[1]);
	CU_ASSERT_EQUAL(hi, 1000);
	pph_data_unregister(h[0]);
	free(v);
}

/* A user operator on a struct: a count and a sum of squares. */
struct stats {
	long count, sumsq;
};

static void stats_init(void *e)
{
	memset(e, 0, sizeof(struct stats));
}

static void stats_combine(void *into, const void *from)
{
	struct stats *a = into;
	const struct stats *b = from;

	a->count += b->count;
	a->sumsq += b->sumsq;
}

static const struct pph_reduction stats_op = { stats_init, stats_combine };

static void k_stats(void *buffers[], void *arg)
{
	struct stats *acc = PPH_VARIABLE_PTR(buffers[0]);
	long v = *(long *)arg;

	acc->count++;
	acc->sumsq += v * v;
}

static const struct pph_impl stats_impls[] = { { PPH_ARCH_CPU, k_stats, "cpu", 0 } };
static const struct pph_codelet stats_cl = { "redux_stats", 1, stats_impls, PPH_MODEL_DEFAULT };

/* reads the stats' count into a long */
static void k_read_count(void *buffers[], void *arg)
{
	(void)arg;
	*(long *)PPH_VARIABLE_PTR(buffers[1]) =
		((const struct stats *)PPH_VARIABLE_PTR(buffers[0]))->count;
}

static const struct pph_impl read_impls[] = { { PPH_ARCH_CPU, k_read_count, "cpu", 0 } };
static const struct pph_codelet read_cl = { "redux_read", 1, read_impls, PPH_MODEL_DEFAULT };

/* Many calls into one handle with a user operator; a host read and a task
 * reading in the middle see the contributions submitted before them. */
static void test_user_op_and_reads(void)
{
	struct stats s = { 1, 1 };
	long seen = -1, v, want_sumsq = 1;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_W };
	enum pph_access redux = PPH_REDUX;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[0], &s, sizeof(s)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[1], &seen, sizeof(seen)), 0);
	CU_ASSERT_EQUAL(pph_data_set_reduction(h[0], &stats_op), 0);
	for (v = 1; v <= 50; v++) {
		CU_ASSERT_EQUAL(pph_call_async(&stats_cl, PPH_ALL_IMPLS, 1, h, &redux, &v, sizeof(v)),
				0);
		want_sumsq += v * v;
	}
	CU_ASSERT_EQUAL(pph_data_acquire(h[0], PPH_R), 0);
	CU_ASSERT_EQUAL(s.count, 51);
	CU_ASSERT_EQUAL(s.sumsq, want_sumsq);
	for (v = 51; v <= 100; v++) {
		CU_ASSERT_EQUAL(pph_call_async(&stats_cl, PPH_ALL_IMPLS, 1, h, &redux, &v, sizeof(v)),
				0);
		want_sumsq += v * v;
	}
	/* a task reading it: after the 50 above, before the 50 below */
	CU_ASSERT_EQUAL(pph_call_async(&read_cl, PPH_ALL_IMPLS, 2, h, modes, NULL, 0), 0);
	for (v = 101; v <= 150; v++) {
		CU_ASSERT_EQUAL(pph_call_async(&stats_cl, PPH_ALL_IMPLS, 1, h, &redux, &v, sizeof(v)),
				0);
		want_sumsq += v * v;
	}
	pph_data_unregister(h[0]);
	pph_data_unregister(h[1]);
	CU_ASSERT_EQUAL(seen, 101);
	CU_ASSERT_EQUAL(s.count, 151);
	CU_ASSERT_EQUAL(s.sumsq, want_sumsq);
}

/* hist[v % 4]++ for each v of the block: a vector combined elementwise */
static void k_hist(void *buffers[], void *arg)
{
	const int *v = PPH_VECTOR_PTR(buffers[0]);
	unsigned *hist = PPH_VECTOR_PTR(buffers[1]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		hist[v[i] % 4]++;
}

static const struct pph_impl hist_impls[] = { { PPH_ARCH_CPU, k_hist, "cpu", 0 } };
static const struct pph_codelet hist_cl = { "redux_hist", 1, hist_impls, PPH_MODEL_DEFAULT };

static void test_vector_elementwise(void)
{
	enum { N = 1003 };
	int *v = malloc(N * sizeof(int));
	unsigned hist[4] = { 0 }, want[4] = { 0 };
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	int parts[2] = { 5, -1 };
	size_t i;

	for (i = 0; i < N; i++) {
		v[i] = (int)(i * i % 11);
		want[v[i] % 4]++;
	}
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[0], v, N, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[1], hist, 4, sizeof(unsigned)), 0);
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_UNSIGNED));
	CU_ASSERT_EQUAL(pph_call_partitioned(&hist_cl, PPH_ALL_IMPLS, 2, h, modes, parts, NULL, 0),
			0);
	pph_data_unregister(h[1]);
	pph_data_unregister(h[0]);
	CU_ASSERT(memcmp(hist, want, sizeof(hist)) == 0);
	free(v);
}

/* No operator, a mode mixed with another on one handle, no CPU variant. */
static void test_refused(void)
{
	long x = 0;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_REDUX, PPH_R };
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[0], &x, sizeof(x)), 0);
	h[1] = h[0];
	CU_ASSERT_EQUAL(pph_call_sync(&stats_cl, PPH_ALL_IMPLS, 1, h, modes, &x, sizeof(x)),
			-EINVAL);
	pph_data_set_reduction(h[0], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_LONG));
	CU_ASSERT_EQUAL(pph_call_sync(&read_cl, PPH_ALL_IMPLS, 2, h, modes, NULL, 0), -EINVAL);
	t = pph_task_create(&cuda_cl);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h[0], PPH_REDUX), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(pph_data_set_reduction(h[0], NULL), -EINVAL);
	CU_ASSERT(pph_reduction_builtin(PPH_REDUCTION_MAX + 1, PPH_TYPE_INT) == NULL);
	pph_data_unregister(h[0]);
	CU_ASSERT_EQUAL(x, 0);
}

void add_redux_tests(CU_pSuite s)
{
	CU_add_test(s, "partitioned dot: exact, blocks concurrent", test_partitioned_dot);
	CU_add_test(s, "float sum: within rounding, deterministic", test_float_sum_deterministic);
	CU_add_test(s, "min and max", test_min_max);
	CU_add_test(s, "user operator, host and task reads between", test_user_op_and_reads);
	CU_add_test(s, "vector combined elementwise", test_vector_elementwise);
	CU_add_test(s, "refused reductions", test_refused);
}
