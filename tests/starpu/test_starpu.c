/*
 * Unit tests of libpeppher-starpu through the public API only: which
 * variant runs (masks, forced variants, a variant that fails and the next
 * one of its kind), by-value arguments, partitions as StarPU filters
 * (blocks, sized blocks, columns, tiles of a matrix with a leading
 * dimension), host access while partitioned, and dependencies between
 * asynchronous calls on containers, reductions (StarPU's STARPU_REDUX),
 * data registered at NULL and calls made inside a variant, and a child
 * forked while StarPU runs, pph_init and pph_shutdown from several threads,
 * and misuse refused as libpeppher refuses it.
 * CPU workers only (PEPPHER_NOPENCL=0).
 */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/resource.h>

#include <CUnit/Basic.h>

#include <peppher/wrappers.h>

#include "../call_errno.h"
#include "../call_caller_thread.h"
#include "../call_fpenv.h"
#include "../worker_stack_check.h"
#include "../thread_signals_check.h"
#include "../container_race.h"

/* x[i] = x[i] * a + tag, tag telling which variant ran */
struct args {
	int a;
};

static void scale(void *buffers[], void *arg, int tag)
{
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	for (i = 0; i < n; i++)
		x[i] = x[i] * ((struct args *)arg)->a + tag;
}

static void scale_one(void *buffers[], void *arg)
{
	scale(buffers, arg, 1);
}

static void scale_two(void *buffers[], void *arg)
{
	scale(buffers, arg, 2);
}

static void scale_fails(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	pph_variant_failed();
}

/* the same over a matrix tile, rows ld apart */
static void mscale(void *buffers[], void *arg)
{
	int *x = PPH_MATRIX_PTR(buffers[0]);
	size_t i, j, ld = PPH_MATRIX_LD(buffers[0]);

	for (i = 0; i < PPH_MATRIX_ROWS(buffers[0]); i++)
		for (j = 0; j < PPH_MATRIX_COLS(buffers[0]); j++)
			x[i * ld + j] = x[i * ld + j] * ((struct args *)arg)->a + 1;
}

static const struct pph_impl mscale_impls[] = { { PPH_ARCH_CPU, mscale, "mscale", 0 } };
static const struct pph_codelet mscale_cl = { "sp_mscale", 1, mscale_impls, PPH_MODEL_HISTORY };

static const struct pph_impl scale_impls[] = {
	{ PPH_ARCH_CPU, scale_one, "one", 0 },
	{ PPH_ARCH_OPENMP, scale_two, "two", 0 },
};
static const struct pph_codelet scale_cl = { "sp_scale", 2, scale_impls, PPH_MODEL_HISTORY };

static const struct pph_impl failing_impls[] = {
	{ PPH_ARCH_CPU, scale_fails, "fails", 0 },
	{ PPH_ARCH_CPU, scale_two, "two", 0 },
};
static const struct pph_codelet failing_cl = { "sp_failing", 2, failing_impls, PPH_MODEL_HISTORY };

static const enum pph_access rw = PPH_RW;

static void test_masks(void)
{
	int x[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct args a = { 3 };
	pph_data_handle h;
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&scale_cl, 1u << 1, 1, &h, &rw, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_EQUAL(x[7], 5); /* 1 * 3 + 2: variant "two" */
	CU_ASSERT_EQUAL(pph_call_sync(&scale_cl, 0, 1, &h, &rw, &a, sizeof(a)), -ENODEV);

	t = pph_task_create(&scale_cl);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, PPH_RW), 0);
	CU_ASSERT_EQUAL(pph_task_set_arg(t, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL(pph_task_force_impl(t, 0), 0);
	CU_ASSERT_EQUAL(pph_task_force_impl(t, 2), -EINVAL);
	CU_ASSERT_EQUAL(pph_task_impl_ran(t), -1);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -EBUSY);
	CU_ASSERT_EQUAL(pph_task_wait(t), 0);
	CU_ASSERT_EQUAL(pph_task_impl_ran(t), 0);
	CU_ASSERT(pph_task_worker_ran(t) >= 0);
	pph_task_destroy(t);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[0], 16); /* 5 * 3 + 1 */
}

static void test_failed_variant(void)
{
	int x[4] = { 1, 2, 3, 4 };
	struct args a = { 2 };
	pph_data_handle h;
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 4, sizeof(int)), 0);
	t = pph_task_create(&failing_cl);
	pph_task_add_buffer(t, h, PPH_RW);
	pph_task_set_arg(t, &a, sizeof(a));
	pph_task_force_impl(t, 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	CU_ASSERT_EQUAL(pph_task_wait(t), -EIO); /* forced onto the failing one */
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_EQUAL(x[3], 4); /* untouched */
	/* the failed variant stays disabled: the next call runs "two" */
	CU_ASSERT_EQUAL(pph_call_sync(&failing_cl, PPH_ALL_IMPLS, 1, &h, &rw, &a, sizeof(a)), 0);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[3], 10);
}

static void test_partitions(void)
{
	enum { R = 6, C = 7, LD = 9 };
	int m[R * LD], v[10], i, j;
	pph_data_handle hm, hv, blocks[20];
	size_t sizes[3] = { 5, 1, 4 };
	struct args a = { 10 };
	int parts[1] = { 3 };

	for (i = 0; i < R * LD; i++)
		m[i] = 1;
	for (i = 0; i < 10; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hv, v, 10, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_data_partition_sizes(hv, 3, sizes, blocks), 0);
	CU_ASSERT_EQUAL(pph_data_partition(hv, 2, blocks + 3), -EBUSY);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), -EBUSY);
	/* each block scaled by a variant of its own: block k by variant k % 2 */
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u << (i % 2), 1, &blocks[i], &rw, &a,
					       sizeof(a)), 0);
	pph_data_unpartition(hv, 3, blocks);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), 0);
	CU_ASSERT_EQUAL(v[4], 41);  /* block 0: 4 * 10 + 1 */
	CU_ASSERT_EQUAL(v[5], 52);  /* block 1: 5 * 10 + 2 */
	CU_ASSERT_EQUAL(v[9], 91);  /* block 2: 9 * 10 + 1 */
	/* a partitioned call gathers its blocks */
	CU_ASSERT_EQUAL(pph_call_partitioned(&scale_cl, 1u, 1, &hv, &rw, parts, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), 0);
	CU_ASSERT_EQUAL(v[9], 911);
	pph_data_unregister(hv);
	/* more blocks asked for than elements: a block each (-EINVAL before) */
	{
		int w[3] = { 1, 2, 3 }, eight[1] = { 8 };

		CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hv, w, 3, sizeof(int)), 0);
		CU_ASSERT_EQUAL(pph_call_partitioned(&scale_cl, 1u, 1, &hv, &rw, eight, &a,
						     sizeof(a)),
				0);
		pph_data_unregister(hv);
		CU_ASSERT(w[0] == 11 && w[1] == 21 && w[2] == 31);
	}

	/* tiles of 4 x 3 over a 6 x 7 matrix with rows 9 apart: 2 x 3 tiles,
	 * the last row and column smaller; the padding stays untouched */
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&hm, m, R, C, LD, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_data_partition_tiles(hm, 4, 3, blocks), 0);
	for (i = 0; i < 6; i++) {
		struct pph_task *t = pph_task_create(&mscale_cl);

		pph_task_add_buffer(t, blocks[i], PPH_RW);
		pph_task_set_arg(t, &a, sizeof(a));
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		pph_task_destroy(t); /* waits */
	}
	pph_data_unpartition(hm, 6, blocks);
	CU_ASSERT_EQUAL(pph_data_acquire(hm, PPH_R), 0);
	for (i = 0; i < R; i++)
		for (j = 0; j < LD; j++) {
			int expect = j < C ? 11 : 1;

			CU_ASSERT_EQUAL(m[i * LD + j], expect);
		}
	CU_ASSERT_EQUAL(pph_data_partition_columns(hm, 8, blocks), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_partition_columns(hm, 2, blocks), 0);
	pph_data_unpartition(hm, 2, blocks);
	pph_data_unregister(hm);
}

/* sums[0] += the block's sum (PPH_REDUX), sums[1] max= the block's
 * largest |x| through an operator of the program's own */
static void block_sums(void *buffers[], void *arg)
{
	const int *x = PPH_VECTOR_PTR(buffers[0]);
	long *sum = PPH_VARIABLE_PTR(buffers[1]);
	int *amax = PPH_VARIABLE_PTR(buffers[2]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++) {
		*sum += x[i];
		if (abs(x[i]) > *amax)
			*amax = abs(x[i]);
	}
}

/* CPU workers only here (PEPPHER_NOPENCL=0): a device variant fails if run */
static void block_sums_device(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	CU_FAIL("a reduction ran on an OpenCL variant");
}

static const struct pph_impl sums_impls[] = {
	{ PPH_ARCH_OPENCL, block_sums_device, "device", 0 },
	{ PPH_ARCH_CPU, block_sums, "cpu", 0 },
};
static const struct pph_codelet sums_cl = { "sp_sums", 2, sums_impls, PPH_MODEL_HISTORY };

static void amax_init(void *e)
{
	*(int *)e = -1;
}

static void amax_combine(void *into, const void *from)
{
	if (*(const int *)from > *(int *)into)
		*(int *)into = *(const int *)from;
}

static const struct pph_reduction amax_op = { amax_init, amax_combine };

/*
 * Sizes StarPU 1.3 keeps in 32 bits: a vector of 2^32 elements or more, a
 * matrix whose rows or leading dimension pass 2^32 - 1, or whose rows * ld
 * does (a device replica's size is their 32-bit product: a matrix of
 * 65536 x 65537 aborted the process in a StarPU assertion on an OpenCL
 * worker).  Refused before StarPU sees them: the pointer is never read.
 */
/*
 * Asynchronous split calls (StarPU's asynchronous partitioning): the
 * blocks wait behind a gate, yet the caller goes on, and what it submits
 * next on the vector runs after their gather: split, whole, split, all
 * before the gate opens, leave ((v * 10 + 1) * 10 + 1) * 10 + 1.
 */
static atomic_int sp_gate_open, sp_gated_blocks;

static void gated_scale(void *buffers[], void *arg)
{
	int waited_ms = 0;

	while (!atomic_load(&sp_gate_open) && waited_ms++ < 10000) /* a hung test ends */
		usleep(1000);
	scale(buffers, arg, 1);
	atomic_fetch_add(&sp_gated_blocks, 1);
}

static const struct pph_impl gated_impls[] = { { PPH_ARCH_CPU, gated_scale, "gated", 0 } };
static const struct pph_codelet gated_cl = { "sp_gated_scale", 1, gated_impls,
					     PPH_MODEL_HISTORY };

static void test_async_split(void)
{
	enum { N = 101 };
	int v[N], i, ok = 1, parts[1] = { 3 };
	struct args a = { 10 };
	pph_data_handle hv;

	for (i = 0; i < N; i++)
		v[i] = i;
	atomic_store(&sp_gate_open, 0);
	atomic_store(&sp_gated_blocks, 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hv, v, N, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, 1u, 1, &hv, &rw, parts, &a,
						   sizeof(a)),
			0);
	CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &hv, &rw, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, 1u, 1, &hv, &rw, parts, &a,
						   sizeof(a)),
			0);
	CU_ASSERT_EQUAL(atomic_load(&sp_gated_blocks), 0); /* none ran: the caller went on */
	atomic_store(&sp_gate_open, 1);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), 0);
	for (i = 0; i < N; i++)
		ok &= v[i] == ((i * 10 + 1) * 10 + 1) * 10 + 1;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(atomic_load(&sp_gated_blocks), 6);
	/* unregistered right after a call: its gather comes first */
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, 1u, 1, &hv, &rw, parts, &a,
						   sizeof(a)),
			0);
	pph_data_unregister(hv);
	CU_ASSERT_EQUAL(v[N - 1], (((N - 1) * 10 + 1) * 10 + 1) * 100 + 11);
}

/* Asynchronous splits on one thread, whole calls on another on the same
 * vector: every element sees one sequence of x + 1 and 2x + 1, so
 * v[i] - v[0] = i 2^DOUBLES (a whole call among a split's blocks breaks
 * it). */
enum { TWO_N = 1000, TWO_SPLITS = 200, TWO_DOUBLES = 10 };
static pph_data_handle two_h;

static void *two_threads_splits(void *arg)
{
	struct args one = { 1 };
	int k, failed = 0, parts[1] = { 4 };

	for (k = 0; k < TWO_SPLITS; k++)
		failed |= pph_call_partitioned_async(&scale_cl, 1u, 1, &two_h, &rw, parts, &one,
						     sizeof(one)) != 0;
	return failed ? NULL : arg;
}

static void test_async_split_two_threads(void)
{
	static int v[TWO_N];
	struct args two = { 2 };
	pthread_t th;
	void *ok_splits = NULL;
	int i, k, ok = 1;

	for (i = 0; i < TWO_N; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&two_h, v, TWO_N, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, two_threads_splits, &ok), 0);
	for (k = 0; k < TWO_DOUBLES; k++) {
		CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &two_h, &rw, &two, sizeof(two)), 0);
		usleep(1000);
	}
	pthread_join(th, &ok_splits);
	CU_ASSERT_PTR_NOT_NULL(ok_splits);
	CU_ASSERT_EQUAL(pph_data_acquire(two_h, PPH_R), 0);
	for (i = 0; i < TWO_N; i++)
		ok &= v[i] - v[0] == i << TWO_DOUBLES;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(two_h);
}

static void test_32bit_sizes(void)
{
	pph_data_handle h = NULL;
	char one[1];

	CU_ASSERT_EQUAL(pph_vector_register(&h, one, (size_t)1 << 32, 1), -EOVERFLOW);
	CU_ASSERT_EQUAL(pph_matrix_register(&h, one, (size_t)1 << 32, 1, 1, 1), -EOVERFLOW);
	CU_ASSERT_EQUAL(pph_matrix_register(&h, one, 1, 1, (size_t)1 << 32, 1), -EOVERFLOW);
	CU_ASSERT_EQUAL(pph_matrix_register(&h, one, 65536, 65537, 65537, 1), -EOVERFLOW);
	CU_ASSERT_EQUAL(pph_matrix_register(&h, one, 65536, 65535, 65537, 1), -EOVERFLOW);
	CU_ASSERT_PTR_NULL(h);
}

static void test_reductions(void)
{
	enum { N = 10000, BLOCKS = 16 };
	static int x[N];
	long sum = 5, expect_sum = 5; /* contributions add to the value there */
	int amax = -1, expect_amax = -1, i, k;
	pph_data_handle hx, hs, ha, blocks[BLOCKS];
	const enum pph_access modes[3] = { PPH_R, PPH_REDUX, PPH_REDUX };
	struct pph_task *t;

	for (i = 0; i < N; i++) {
		x[i] = (i * 7919) % 2001 - 1000;
		expect_sum += x[i];
		if (abs(x[i]) > expect_amax)
			expect_amax = abs(x[i]);
	}
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hx, x, N, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&hs, &sum, sizeof(sum)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&ha, &amax, sizeof(amax)), 0);
	/* no operator yet: refused at the submission, as libpeppher does */
	t = pph_task_create(&sums_cl);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, hx, PPH_R), 0);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, hs, PPH_REDUX), 0);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, ha, PPH_RW), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -EINVAL);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(pph_data_set_reduction(hs, NULL), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_set_reduction(hs, pph_reduction_builtin(PPH_REDUCTION_SUM,
									  PPH_TYPE_LONG)), 0);
	CU_ASSERT_EQUAL(pph_data_set_reduction(ha, &amax_op), 0);
	/* a handle used twice, once as a contribution: refused */
	t = pph_task_create(&sums_cl);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, hx, PPH_R), 0);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, hs, PPH_REDUX), 0);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, hs, PPH_R), 0);
	CU_ASSERT_EQUAL(pph_task_submit(t), -EINVAL);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(hx, BLOCKS, blocks), 0);
	for (k = 0; k < BLOCKS; k++) {
		pph_data_handle h[3] = { blocks[k], hs, ha };

		CU_ASSERT_EQUAL(pph_call_async(&sums_cl, PPH_ALL_IMPLS, 3, h, modes, NULL, 0), 0);
	}
	pph_data_unpartition(hx, BLOCKS, blocks);
	CU_ASSERT_EQUAL(pph_data_acquire(hs, PPH_R), 0);
	CU_ASSERT_EQUAL(sum, expect_sum);
	CU_ASSERT_EQUAL(pph_data_acquire(ha, PPH_R), 0);
	CU_ASSERT_EQUAL(amax, expect_amax);
	/* a second round adds to the first's result */
	{
		pph_data_handle h[3] = { hx, hs, ha };

		CU_ASSERT_EQUAL(pph_call_sync(&sums_cl, PPH_ALL_IMPLS, 3, h, modes, NULL, 0), 0);
	}
	CU_ASSERT_EQUAL(pph_data_acquire(hs, PPH_R), 0);
	CU_ASSERT_EQUAL(sum, 2 * expect_sum - 5);
	/* only device variants allowed: no variant can take part */
	{
		pph_data_handle h[3] = { hx, hs, ha };

		CU_ASSERT_EQUAL(pph_call_sync(&sums_cl, 1u, 3, h, modes, NULL, 0), -ENODEV);
	}
	pph_data_unregister(hx);
	pph_data_unregister(hs);
	pph_data_unregister(ha);
	CU_ASSERT_EQUAL(sum, 2 * expect_sum - 5);
	CU_ASSERT_EQUAL(amax, expect_amax);
}

/*
 * Each list of variants of an interface has a StarPU model of its own,
 * symbol peppher.NAME.HASH: StarPU keeps histories per implementation slot,
 * and a model named after the interface alone gave a variant renamed,
 * added, removed or moved the history of the one whose slot it took, never
 * corrected (srt_zins, O(n^2), ran on srt_omp's history of 4.8 ms at
 * 89-122 ms a call).  Four codelets named sp_models: "one" and "two", the
 * two swapped, "two" renamed "three", and the first list again at another
 * address: three models, saved by StarPU at pph_shutdown.
 */
static const char *models_prefix = "peppher.sp_models.";
static int models_found;

static int model_file_seen(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *name = path + ftw->base;

	(void)st;
	if (type == FTW_F && strncmp(name, models_prefix, strlen(models_prefix)) == 0) {
		if (models_found < 0)
			unlink(path); /* from an earlier run of the test */
		else
			models_found++;
	}
	return 0;
}

static int models_saved(const char *dir, int remove)
{
	models_found = remove ? -1 : 0;
	nftw(dir, model_file_seen, 8, FTW_PHYS);
	return models_found;
}

static void test_models_per_variant_list(void)
{
	static const struct pph_impl listed[] = {
		{ PPH_ARCH_CPU, scale_one, "one", 0 },
		{ PPH_ARCH_CPU, scale_two, "two", 0 },
	};
	static const struct pph_impl swapped[] = {
		{ PPH_ARCH_CPU, scale_two, "two", 0 },
		{ PPH_ARCH_CPU, scale_one, "one", 0 },
	};
	static const struct pph_impl renamed[] = {
		{ PPH_ARCH_CPU, scale_one, "one", 0 },
		{ PPH_ARCH_CPU, scale_two, "three", 0 },
	};
	static const struct pph_codelet cls[] = {
		{ "sp_models", 2, listed, PPH_MODEL_HISTORY },
		{ "sp_models", 2, swapped, PPH_MODEL_HISTORY },
		{ "sp_models", 2, renamed, PPH_MODEL_HISTORY },
		{ "sp_models", 2, listed, PPH_MODEL_HISTORY },
	};
	int x[64] = { 0 };
	struct args a = { 1 };
	char dir[4096];
	pph_data_handle h;
	unsigned c, k;

	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(getenv("STARPU_HOME"));
	snprintf(dir, sizeof(dir), "%s/.starpu/sampling", getenv("STARPU_HOME"));
	models_saved(dir, 1);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 64, sizeof(int)), 0);
	for (c = 0; c < sizeof(cls) / sizeof(cls[0]); c++)
		for (k = 0; k < 4; k++)
			CU_ASSERT_EQUAL(pph_call_sync(&cls[c], 1u << (k % 2), 1, &h, &rw, &a,
						      sizeof(a)),
					0);
	pph_data_unregister(h);
	pph_shutdown();
	CU_ASSERT_EQUAL(models_saved(dir, 0), 3);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void test_containers(void)
{
	pph_vector *v = pph_vector_create_int(1000);
	struct args a = { 2 };
	pph_data_handle h;
	int i, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	for (i = 0; i < 1000; i++)
		PPH_VECTOR_SET(v, int, i, i);
	/* 20 asynchronous calls in a chain, then a host read waits for them */
	for (i = 0; i < 20; i++) {
		h = pph_container_use(&v->c, PPH_RW);
		CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a)), 0);
		a.a = 1;
	}
	for (i = 0; i < 1000; i++)
		bad += PPH_VECTOR_GET(v, int, i) != 2 * i + 20;
	CU_ASSERT_EQUAL(bad, 0);
	pph_vector_destroy(v);
}

/* See container_race.h. */
static void test_container_race(void)
{
	CU_ASSERT_EQUAL(container_race(), 0);
}

/* See call_caller_thread.h: StarPU's workers run every other variant. */
static void test_caller_thread(void)
{
	check_caller_thread();
}

/* See call_errno.h: StarPU's workers run every variant here. */
static void test_call_errno(void)
{
	int elsewhere = 0;

	CU_ASSERT_EQUAL(call_errno(&elsewhere), 0);
	CU_ASSERT(elsewhere >= ERRNO_CALLS);
}

/* See worker_stack_check.h: StarPU's workers, made with the stack asked. */
static void test_worker_stack(void)
{
	size_t stack;
	int rc;

	pph_shutdown();
	setenv("PEPPHER_STACKSIZE", "8MB", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_STACKSIZE", "16M", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(worker_stack_size(), (size_t)16 << 20);
	pph_shutdown();
	unsetenv("PEPPHER_STACKSIZE");
	rc = unlimited_worker_stack(&stack);
	CU_ASSERT(rc == 1 || (rc == 0 && stack == PPH_STACK_UNLIMITED));
	CU_ASSERT_EQUAL(pph_init(), 0);
	/* the threads the program makes after pph_init: the defaults again */
	{
		pthread_attr_t attr;
		size_t bytes = 0;

		CU_ASSERT_EQUAL(pthread_getattr_default_np(&attr), 0);
		pthread_attr_getstacksize(&attr, &bytes);
		pthread_attr_destroy(&attr);
		CU_ASSERT_NOT_EQUAL(bytes, (size_t)16 << 20);
	}
}

/* See thread_signals_check.h: StarPU's threads, and MPI's and the
 * drivers' started with them. */
static void test_thread_signals(void)
{
	check_thread_signals();
}

/* See call_fpenv.h: StarPU's workers run every variant here. */
static void test_call_fpenv(void)
{
	CU_ASSERT_EQUAL(call_fpenv(), 0);
}

/*
 * Host data: registered at NULL, the variant gets NULL (StarPU faulted
 * registering it); a call made inside a variant runs at once on the
 * worker, on data registered there (StarPU's workers must not wait), and
 * refuses data registered outside it.
 */
static pph_data_handle outer_handle;
static int inner_rc, outer_refused, outer_acquire;

static void k_null_or_add(void *buffers[], void *arg)
{
	long *x = PPH_VARIABLE_PTR(buffers[0]);

	if (x)
		*x += *(const long *)arg;
	else
		inner_rc = -1000; /* marks "got NULL" */
}

static const struct pph_impl null_or_add_impls[] = { { PPH_ARCH_CPU, k_null_or_add, "add", 0 } };
static const struct pph_codelet null_or_add_cl = { "null_or_add", 1, null_or_add_impls,
						   PPH_MODEL_DEFAULT };

static void k_outer(void *buffers[], void *arg)
{
	long *x = PPH_VARIABLE_PTR(buffers[0]), local = 5, three = 3;
	pph_data_handle h;
	enum pph_access m = PPH_RW;

	(void)arg;
	/* a component called here, on the variant's own memory */
	if (pph_variable_register(&h, &local, sizeof(local)) == 0) {
		inner_rc = pph_call_sync(&null_or_add_cl, PPH_ALL_IMPLS, 1, &h, &m, &three,
					 sizeof(three));
		pph_data_unregister(h);
	}
	*x = local;
	outer_refused = pph_call_sync(&null_or_add_cl, PPH_ALL_IMPLS, 1, &outer_handle, &m, &three,
				      sizeof(three));
	/* waits StarPU forbids its workers are refused, not aborted on */
	outer_acquire = pph_data_acquire(outer_handle, PPH_R);
}

static const struct pph_impl outer_impls[] = { { PPH_ARCH_CPU, k_outer, "outer", 0 } };
static const struct pph_codelet outer_cl = { "outer", 1, outer_impls, PPH_MODEL_DEFAULT };

static void test_host_data(void)
{
	long x = 0, other = 1, seven = 7;
	pph_data_handle h, none;
	enum pph_access m = PPH_RW;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&none, NULL, sizeof(long)), 0);
	inner_rc = 0;
	CU_ASSERT_EQUAL(pph_call_sync(&null_or_add_cl, PPH_ALL_IMPLS, 1, &none, &m, &seven,
				      sizeof(seven)), 0);
	CU_ASSERT_EQUAL(inner_rc, -1000);
	CU_ASSERT_EQUAL(pph_data_acquire(none, PPH_RW), 0);
	pph_data_unregister(none);

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h, &x, sizeof(x)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&outer_handle, &other, sizeof(other)), 0);
	inner_rc = outer_refused = 1;
	CU_ASSERT_EQUAL(pph_call_sync(&outer_cl, PPH_ALL_IMPLS, 1, &h, &m, NULL, 0), 0);
	CU_ASSERT_EQUAL(inner_rc, 0);
	CU_ASSERT_EQUAL(outer_refused, -EDEADLK);
	CU_ASSERT_EQUAL(outer_acquire, -EDEADLK);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_EQUAL(x, 8);
	pph_data_unregister(outer_handle);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(other, 1);
}

static void scale_errs(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	pph_variant_error("test: this call fails");
}

static const struct pph_impl erring_impls[] = { { PPH_ARCH_CPU, scale_errs, "errs", 0 } };
static const struct pph_codelet erring_cl = { "sp_erring", 1, erring_impls, PPH_MODEL_HISTORY };

/* Asynchronous calls that fail are counted by the time a host read of
 * their data returns (the count came in StarPU's callback, after the
 * data was released: one of two, often). */
static void test_failed_count(void)
{
	int x[4] = { 1, 2, 3, 4 }, round;
	struct args a = { 2 };
	pph_data_handle h;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 4, sizeof(int)), 0);
	for (round = 0; round < 50; round++) {
		unsigned long failed = pph_failed_calls();

		CU_ASSERT_EQUAL(pph_call_async(&erring_cl, PPH_ALL_IMPLS, 1, &h, &rw, &a, sizeof(a)), 0);
		CU_ASSERT_EQUAL(pph_call_async(&erring_cl, PPH_ALL_IMPLS, 1, &h, &rw, &a, sizeof(a)), 0);
		CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
		CU_ASSERT_EQUAL(pph_failed_calls() - failed, 2);
	}
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[3], 4);
}

/* Does the file at fd (stderr's, redirected) hold needle? */
static int file_holds(int fd, const char *needle)
{
	char buf[4096];
	ssize_t n;

	fflush(stderr);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

/*
 * A child forked while StarPU runs has its state, not its threads: there
 * the runtime does not run, pph_shutdown returns at once (starpu_shutdown
 * hung), calls fail saying why.  Each failed check sets a bit of the exit
 * status; SIGALRM kills a hang.
 */
static int forked_child(pph_data_handle h, int round)
{
	char path[] = "/tmp/peppher-fork-XXXXXX";
	int fd = mkstemp(path), failed = 0;
	struct args a = { 2 };

	alarm(10);
	if (fd < 0)
		return 1;
	unlink(path);
	dup2(fd, 2);
	failed |= pph_is_initialized() << 1;
	pph_shutdown();
	failed |= (pph_call_sync(&scale_cl, PPH_ALL_IMPLS, 1, &h, &rw, &a, sizeof(a)) != -ENODEV) << 2;
	failed |= !file_holds(fd, "sp_scale: the runtime is not running (refused in a forked child") << 3;
	failed |= (pph_data_acquire(h, PPH_R) != -ENODEV) << 4;
	failed |= (pph_init() != -EPERM || pph_is_initialized()) << 5;
	failed |= !file_holds(fd, "pph_init: refused in a forked child") << 6;
	pph_data_unregister(h);
	pph_shutdown();
	if (round % 2)
		exit(failed); /* atexit handlers and destructors too */
	return failed;
}

/* A variant that unregisters, partitions or destroys what its own task
 * holds is refused, said (StarPU asserted, and the program aborted). */
static pph_data_handle self_h;
static pph_vector *self_v;
static int self_what, self_rc;

static void k_self(void *buffers[], void *arg)
{
	pph_data_handle blocks[2];

	(void)buffers;
	(void)arg;
	if (self_what == 0)
		pph_data_unregister(self_h);
	else if (self_what == 1)
		self_rc = pph_data_partition(self_h, 2, blocks);
	else
		pph_vector_destroy(self_v);
}

static const struct pph_impl self_impls[] = { { PPH_ARCH_CPU, k_self, "sp_self_cpu", 0 } };
static const struct pph_codelet self_cl = { "sp_self", 1, self_impls, PPH_MODEL_HISTORY };

static void self_calls(void)
{
	double x[4] = { 0 };
	int k;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&self_h, x, 4, sizeof(double)), 0);
	self_v = pph_vector_create(4, sizeof(double));
	CU_ASSERT_PTR_NOT_NULL_FATAL(self_v);
	for (k = 0; k < 3; k++) {
		pph_data_handle h = k == 2 ? pph_container_use(&self_v->c, PPH_RW) : self_h;
		enum pph_access mode = PPH_RW;

		self_what = k;
		self_rc = 0;
		CU_ASSERT_EQUAL(pph_call_sync(&self_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
		CU_ASSERT_EQUAL(self_rc, k == 1 ? -EDEADLK : 0);
	}
	pph_data_unregister(self_h);
	pph_vector_destroy(self_v);
}

static void test_self_use_in_variant(void)
{
	self_calls(); /* said three times on stderr */
}

static void test_fork(void)
{
	int x[4] = { 1, 1, 1, 1 }, round, status;
	struct args a = { 1 };
	pph_data_handle h;
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 4, sizeof(int)), 0);
	for (round = 0; round < 20; round++) {
		if (round % 2) /* else every worker idle */
			CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a)), 0);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0)
			_exit(forked_child(h, round));
		CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fprintf(stderr, "round %d: child %s %d\n", round,
				WIFEXITED(status) ? "exited with" : "killed by signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* the parent goes on */
	CU_ASSERT_TRUE(pph_is_initialized());
	CU_ASSERT_EQUAL(pph_call_sync(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a)), 0);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x[0], 12); /* 1 + 10 async calls + 1 */
}

#define INIT_RACE_PROGRAM "test_starpu"
#include "../init_race.h"
#include "../affinity.h"

/* Calls after pph_shutdown: refused, said once until the next pph_init
 * (each said a line: 40,000 of them from a loop). */
static int count_in(int fd, const char *needle)
{
	char buf[8192], *at;
	ssize_t n;
	int count = 0;

	fflush(stderr);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	for (at = buf; (at = strstr(at, needle)); at++)
		count++;
	return count;
}

/*
 * What libpeppher refuses at the submission, refused there too, said: a
 * partitioned handle (-EBUSY; test_reductions: a contribution without an
 * operator, or to a handle the task also uses otherwise, -EINVAL).
 * pph_task_add_buffer refused them, and a program that checked the
 * submission alone ran its variant without the buffer (SIGSEGV).  An unpartition naming the wrong
 * blocks does nothing, said, as libpeppher's: it gathered every block
 * whatever it was given, freeing blocks the program still used.
 */
static void test_refused_as_libpeppher(void)
{
	char path[] = "/tmp/peppher-misuse-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), v[10], i;
	pph_data_handle hv, blocks[2], twice[2];
	struct args a = { 3 };
	struct pph_task *t;
	int added;

	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	unlink(path);
	for (i = 0; i < 10; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hv, v, 10, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(hv, 2, blocks), 0);
	fflush(stderr);
	dup2(fd, 2);
	t = pph_task_create(&scale_cl);
	pph_task_set_arg(t, &a, sizeof(a));
	CU_ASSERT_EQUAL(added = pph_task_add_buffer(t, hv, PPH_RW), 0);
	if (added == 0) /* else the variant would run without it */
		CU_ASSERT_EQUAL(pph_task_submit(t), -EBUSY);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), -EBUSY);
	/* the wrong count, a block twice: nothing done, the blocks usable */
	pph_data_unpartition(hv, 1, blocks);
	twice[0] = twice[1] = blocks[0];
	pph_data_unpartition(hv, 2, twice);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), -EBUSY);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CU_ASSERT_EQUAL(count_in(fd, "is partitioned: pph_data_unpartition() it first"), 3);
	CU_ASSERT_EQUAL(count_in(fd, "has 2 blocks, not 1: nothing done"), 1);
	CU_ASSERT_EQUAL(count_in(fd, "block 1 ("), 1);
	CU_ASSERT_EQUAL(count_in(fd, "is not one of handle"), 1);
	close(fd);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &blocks[i], &rw, &a, sizeof(a)), 0);
	pph_data_unpartition(hv, 2, blocks);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), 0);
	CU_ASSERT(v[0] == 1 && v[4] == 13 && v[5] == 16 && v[9] == 28);
	pph_data_unregister(hv);
	/* unregistered: refused, said (the handle is kept: it was freed, and
	 * these read freed memory, refusing by luck: valgrind's invalid read) */
	strcpy(path, "/tmp/peppher-misuse-XXXXXX");
	fd = mkstemp(path);
	saved = dup(2);
	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	unlink(path);
	fflush(stderr);
	dup2(fd, 2);
	pph_data_unregister(hv);
	CU_ASSERT_EQUAL(pph_data_acquire(hv, PPH_R), -EINVAL);
	t = pph_task_create(&scale_cl);
	CU_ASSERT_NOT_EQUAL(pph_task_add_buffer(t, hv, PPH_RW), 0);
	pph_task_destroy(t);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CU_ASSERT_EQUAL(count_in(fd, "pph_data_unregister: an unregistered handle refused"), 1);
	close(fd);
}

/*
 * After pph_shutdown the host memory is the data (runtime.h): a container
 * the calls left pending is read, written and destroyed, a handle
 * acquired and unregistered, a partitioned one unpartitioned, as with
 * libpeppher, saying nothing.  pph_data_acquire asked the stopped runtime
 * (-ENODEV, said), and pph_vector_read gave NULL.  Then the runtime runs
 * again.
 */
static void test_host_access_after_shutdown(void)
{
	char path[] = "/tmp/peppher-after-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), x[6] = { 1, 2, 3, 4, 5, 6 }, i, bad = 0;
	pph_vector *v = pph_vector_create_int(100);
	pph_data_handle h, hp, blocks[2];
	const int *r;
	int *w;
	struct args a = { 3 };

	CU_ASSERT_FATAL(fd >= 0 && saved >= 0 && v);
	unlink(path);
	for (i = 0; i < 100; i++)
		PPH_VECTOR_SET(v, int, i, i);
	h = pph_container_use(&v->c, PPH_RW);
	CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, x, 3, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hp, x + 3, 3, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(hp, 2, blocks), 0);
	CU_ASSERT_EQUAL(pph_call_async(&scale_cl, 1u, 1, &blocks[1], &rw, &a, sizeof(a)), 0);
	fflush(stderr);
	dup2(fd, 2);
	pph_shutdown(); /* waits for the calls, brings the data home */
	r = pph_vector_read(v);
	CU_ASSERT_PTR_NOT_NULL(r);
	for (i = 0; r && i < 100; i++)
		bad += r[i] != 3 * i + 1;
	CU_ASSERT_EQUAL(bad, 0);
	w = pph_vector_write(v);
	CU_ASSERT_PTR_NOT_NULL(w);
	if (w)
		w[0] = 7;
	CU_ASSERT_EQUAL(PPH_VECTOR_GET(v, int, 0), 7);
	pph_vector_destroy(v);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_RW), 0);
	pph_data_unregister(h);
	pph_data_unpartition(hp, 2, blocks);
	CU_ASSERT_EQUAL(pph_data_acquire(hp, PPH_R), 0);
	pph_data_unregister(hp);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CU_ASSERT_EQUAL(count_in(fd, "peppher"), 0);
	close(fd);
	/* blocks of 2 and 1 elements: the second is x[5] */
	CU_ASSERT(x[0] == 4 && x[1] == 7 && x[2] == 10 && x[3] == 4 && x[4] == 5 && x[5] == 19);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

static void test_refusals_said_once(void)
{
	char path[] = "/tmp/peppher-refused-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), x = 0, i;
	pph_data_handle h;
	struct args a = { 2 };

	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	unlink(path);
	pph_shutdown();
	fflush(stderr);
	dup2(fd, 2);
	for (i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(pph_variable_register(&h, &x, sizeof(x)), -ENODEV);
		h = NULL;
		CU_ASSERT_EQUAL(pph_call_sync(&scale_cl, PPH_ALL_IMPLS, 0, NULL, NULL, &a, sizeof(a)),
				-ENODEV);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CU_ASSERT_EQUAL(count_in(fd, "the runtime is not running"), 1);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

#define CALLERS 4
#define CALLER_N 64

struct caller {
	int x[CALLER_N];
	long ok, refused;
};

static atomic_int callers_stop;

/* What an entry wrapper does, again and again: register, call, unregister. */
static void *caller(void *arg)
{
	struct caller *c = arg;
	struct args a = { 1 };

	while (!atomic_load(&callers_stop)) {
		pph_data_handle h;
		int rc;

		/* refused once StarPU stopped, or stops */
		if (pph_vector_register(&h, c->x, CALLER_N, sizeof(int)) != 0) {
			c->refused++;
			usleep(100); /* each says so: not thousands of lines */
			continue;
		}
		rc = pph_call_sync(&scale_cl, 1u, 1, &h, &rw, &a, sizeof(a));
		if (rc == 0)
			c->ok++;
		else if (rc == -ENODEV)
			c->refused++;
		pph_data_unregister(h);
	}
	return NULL;
}

/*
 * pph_shutdown while other threads still make calls: the calls accepted
 * ran (each adds 1 to every element: scale_cl's "one" with a = 1), the
 * others refused; StarPU is stopped only once they are out (it crashed
 * in starpu_task_submit, or hung, in the first cycle).
 */
static void test_shutdown_while_calling(void)
{
	static struct caller callers[CALLERS];
	pthread_t th[CALLERS];
	long refused = 0;
	int c, t, i;

	alarm_set(60);
	pph_shutdown();
	for (c = 0; c < CYCLES / 2; c++) {
		memset(callers, 0, sizeof(callers));
		atomic_store(&callers_stop, 0);
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		for (t = 0; t < CALLERS; t++)
			pthread_create(&th[t], NULL, caller, &callers[t]);
		usleep(2000 + 700 * (useconds_t)c);
		pph_shutdown();
		usleep(1000);
		atomic_store(&callers_stop, 1);
		for (t = 0; t < CALLERS; t++) {
			pthread_join(th[t], NULL);
			for (i = 0; i < CALLER_N; i++)
				if (callers[t].x[i] != callers[t].ok)
					break;
			CU_ASSERT_EQUAL(i, CALLER_N);
			refused += callers[t].refused;
		}
	}
	alarm(0);
	CU_ASSERT_TRUE(refused > 0);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* x[i] += 1 after 500 us */
static void inc_late(void *buffers[], void *arg)
{
	long *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i;

	(void)arg;
	usleep(500);
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i]++;
}

static const struct pph_impl inc_late_impls[] = { { PPH_ARCH_CPU, inc_late, "inc_late", 0 } };
static const struct pph_codelet inc_late_cl = { "sp_recalibrate", 1, inc_late_impls,
						PPH_MODEL_DEFAULT };

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * pph_init and pph_shutdown again and again under dmda, in a home of
 * fresh models, a chain of calls running when one of a size StarPU has
 * not calibrated comes: at StarPU's default calibration, its prediction
 * turned the model's calibration on under the running task, which then
 * ended with no start time taken, and StarPU aborted the process
 * ("measured >= 0"), in 4 runs of 5 within 8 cycles.
 */
static void test_recalibration_cycles(void)
{
	const int cycles = 10, calls = 50;
	static long v[64], w[1000];
	char home[] = "/tmp/peppher-sp-calibrate-XXXXXX";
	char *saved = getenv("PEPPHER_HOME") ? strdup(getenv("PEPPHER_HOME")) : NULL;
	pph_data_handle h, h2;
	int c, k;

	pph_shutdown();
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(home));
	setenv("PEPPHER_HOME", home, 1);
	for (c = 0; c < cycles; c++) {
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		CU_ASSERT_EQUAL(pph_vector_register(&h, v, 64, sizeof(long)), 0);
		CU_ASSERT_EQUAL(pph_vector_register(&h2, w, 1000, sizeof(long)), 0);
		for (k = 0; k < calls; k++)
			CU_ASSERT_EQUAL(pph_call_async(&inc_late_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
		CU_ASSERT_EQUAL(pph_call_async(&inc_late_cl, PPH_ALL_IMPLS, 1, &h2, &rw, NULL, 0), 0);
		pph_data_unregister(h);
		pph_data_unregister(h2);
		pph_shutdown();
	}
	CU_ASSERT_EQUAL(v[63], cycles * calls);
	CU_ASSERT_EQUAL(w[999], cycles);
	nftw(home, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	if (saved)
		setenv("PEPPHER_HOME", saved, 1);
	else
		unsetenv("PEPPHER_HOME");
	free(saved);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

int main(void)
{
	CU_pSuite s;
	unsigned failed;

	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCPU", "2", 1);
	if (pph_init() != 0)
		return 1;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("libpeppher-starpu", NULL, NULL);
	CU_add_test(s, "variant masks and forced variants", test_masks);
	CU_add_test(s, "a failed variant, then the next one", test_failed_variant);
	CU_add_test(s, "partitions as filters", test_partitions);
	CU_add_test(s, "asynchronous split calls: the caller goes on", test_async_split);
	CU_add_test(s, "asynchronous splits and whole calls from two threads on one vector",
		    test_async_split_two_threads);
	CU_add_test(s, "misuse refused where libpeppher refuses it, said",
		    test_refused_as_libpeppher);
	CU_add_test(s, "containers and asynchronous calls", test_containers);
	CU_add_test(s, "a model per list of variants", test_models_per_variant_list);
	CU_add_test(s, "a container read by two threads, one calling a component on it",
		    test_container_race);
	CU_add_test(s, "errno: the variant's after a synchronous call, the caller's after others",
		    test_call_errno);
	CU_add_test(s, "a variant for the caller's thread runs there, in its data's order",
		    test_caller_thread);
	CU_add_test(s, "the caller's rounding and traps in the variant, its flags back",
		    test_call_fpenv);
	CU_add_test(s, "a worker's stack: PEPPHER_STACKSIZE, or large where ulimit -s is unlimited",
		    test_worker_stack);
	CU_add_test(s, "signals sent to the process reach the program's threads, not the workers",
		    test_thread_signals);
	CU_add_test(s, "sizes past 32 bits refused", test_32bit_sizes);
	CU_add_test(s, "reductions", test_reductions);
	CU_add_test(s, "NULL data, and calls inside a variant", test_host_data);
	CU_add_test(s, "failed asynchronous calls counted before a host read", test_failed_count);
	CU_add_test(s, "a child forked while StarPU runs", test_fork);
	CU_add_test(s, "a variant using what its own task holds", test_self_use_in_variant);
	CU_add_test(s, "pph_init from two threads at once", test_init_concurrent);
	CU_add_test(s, "pph_shutdown from two threads at once", test_shutdown_concurrent);
	CU_add_test(s, "pph_shutdown while other threads make calls", test_shutdown_while_calling);
	CU_add_test(s, "calls after pph_shutdown refused, said once", test_refusals_said_once);
	CU_add_test(s, "host access after pph_shutdown", test_host_access_after_shutdown);
	CU_add_test(s, "pph_init and pph_shutdown again and again, models calibrating",
		    test_recalibration_cycles);
	CU_add_test(s, "workers on the CPUs pph_init's thread is bound to", test_bound_thread);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	pph_shutdown();
	return failed ? 1 : 0;
}
