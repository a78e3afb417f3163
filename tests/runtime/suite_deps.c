/* Unit tests of runtime/deps.c: dependencies inferred from access modes. */
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

#include "suites.h"
#include "testutil.h"

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

static const struct pph_impl meet_impls[] = { { PPH_ARCH_CPU, k_meet, "meet", 0 } };
static const struct pph_codelet meet_cl = { "meet", 1, meet_impls, PPH_MODEL_DEFAULT };

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

static const struct pph_impl copy_impls[] = { { PPH_ARCH_CPU, k_copy, "copy", 0 } };
static const struct pph_codelet copy_cl = { "copy", 1, copy_impls, PPH_MODEL_DEFAULT };

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
	{ PPH_ARCH_CPU, k_rg, "rg_a", 0 },
	{ PPH_ARCH_CPU, k_rg, "rg_b", 0 },
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

void add_deps_tests(CU_pSuite s)
{
	CU_add_test(s, "read after write chain", test_raw_chain);
	CU_add_test(s, "write after read", test_war);
	CU_add_test(s, "write after write", test_waw);
	CU_add_test(s, "readers run concurrently", test_readers_concurrent);
	CU_add_test(s, "same handle twice in a task", test_same_handle_twice);
	CU_add_test(s, "random graph equals sequential run", test_random_graph);
}
