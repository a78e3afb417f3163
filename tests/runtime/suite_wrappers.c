/* Unit tests of runtime/wrappers.c: the calls generated entry wrappers make. */
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
#include "../call_errno.h"
#include "../call_caller_thread.h"
#include "../call_fpenv.h"
#include "../container_race.h"
#include "suites.h"
#include "testutil.h"

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

/*
 * A call split for the CPU workers alone (the codelet has no device
 * variant): `auto` is one block per CPU worker, not per worker, and the
 * blocks run the single-thread variant, never the fork-join one, whose
 * team would hold the other blocks' cores.  Each block adds one to its
 * elements and counts itself; the fork-join variant counts itself too.
 */
static atomic_int split_blocks, split_forks;

static void k_block_inc(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++)
		v[i]++;
	atomic_fetch_add(&split_blocks, 1);
}

static void k_block_inc_omp(void *buffers[], void *arg)
{
	atomic_fetch_add(&split_forks, 1);
	k_block_inc(buffers, arg);
}

static const struct pph_impl split_impls[] = {
	{ PPH_ARCH_CPU, k_block_inc, "inc_cpu", 0 },
	{ PPH_ARCH_OPENMP, k_block_inc_omp, "inc_omp", 0 },
};
static const struct pph_codelet split_cl = { "cpu_split", 2, split_impls, PPH_MODEL_DEFAULT };

static void test_cpu_only_split(void)
{
	enum { N = 1000, CALLS = 6 };
	int *v = calloc(N, sizeof(int)), parts = 0, call, i, ok = 1;
	unsigned ncpu = pph__rt.arch_workers[PPH_ARCH_CPU];
	pph_data_handle h;
	enum pph_access mode = PPH_RW;

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, N, sizeof(int)), 0);
	atomic_store(&split_blocks, 0);
	atomic_store(&split_forks, 0);
	/* dmda explores every uncalibrated choice: the fork-join variant
	 * would run in the first calls if the blocks could run it */
	for (call = 0; call < CALLS; call++)
		CU_ASSERT_EQUAL(pph_call_partitioned(&split_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts,
						     NULL, 0),
				0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < N; i++)
		ok &= v[i] == CALLS;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	free(v);
	CU_ASSERT_EQUAL(atomic_load(&split_blocks), CALLS * (int)ncpu);
	CU_ASSERT_EQUAL(atomic_load(&split_forks), 0);
}

/* A split call from a thread with a 32 KiB stack (twice PTHREAD_STACK_MIN):
 * its tables per block took 44 KiB of the caller's stack. */
static void *small_stack_splits(void *arg)
{
	int *v = arg, parts = 0;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int rc;

	if (pph_vector_register(&h, v, 1000, sizeof(int)))
		return NULL;
	rc = pph_call_partitioned(&split_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts, NULL, 0);
	pph_data_unregister(h);
	return rc ? NULL : v;
}

static void test_small_stack_split(void)
{
	static int v[1000];
	pthread_attr_t attr;
	pthread_t th;
	void *ret = NULL;
	int i, ok = 1;

	CU_ASSERT_EQUAL_FATAL(pthread_attr_init(&attr), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_attr_setstacksize(&attr, 32 * 1024), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, &attr, small_stack_splits, v), 0);
	pthread_attr_destroy(&attr);
	CU_ASSERT_EQUAL(pthread_join(th, &ret), 0);
	CU_ASSERT_PTR_EQUAL(ret, v);
	for (i = 0; i < 1000; i++)
		ok &= v[i] == 1;
	CU_ASSERT_TRUE(ok);
	memset(v, 0, sizeof(v));
}

/* Split calls of split_cl over the first n of v[3] = { 0, 10, 20 }, for
 * each n of sizes (ending in 0), parts blocks each; v as they leave it. */
static void split_prefixes(int v[3], const int *sizes, int parts)
{
	pph_data_handle h;
	enum pph_access mode = PPH_RW;

	v[0] = 0;
	v[1] = 10;
	v[2] = 20;
	atomic_store(&split_blocks, 0);
	for (; *sizes; sizes++) {
		CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, (size_t)*sizes, sizeof(int)), 0);
		CU_ASSERT_EQUAL(pph_call_partitioned(&split_cl, 1u << 0, 1, &h, &mode, &parts, NULL,
						     0),
				0);
		pph_data_unregister(h);
	}
}

/* More blocks asked for than the vector has elements: a block each (it
 * failed with -EINVAL), the call whole for one element. */
static void test_split_more_blocks_than_elements(void)
{
	static const int sizes[] = { 3, 1, 0 };
	int v[3];

	split_prefixes(v, sizes, 8);
	CU_ASSERT_EQUAL(v[0], 2);
	CU_ASSERT_EQUAL(v[1], 11);
	CU_ASSERT_EQUAL(v[2], 21);
	CU_ASSERT_EQUAL(atomic_load(&split_blocks), 3 + 1);
}

/* partition="auto" over fewer elements than workers: a block per element
 * (2 rows on 4 workers failed every call with -EINVAL, the handles then
 * unpartitioned though never partitioned). */
static void test_auto_split_fewer_elements_than_workers(void)
{
	static const int sizes[] = { 3, 2, 0 };
	int v[3];

	pph_shutdown();
	setenv("PEPPHER_NCPU", "4", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	split_prefixes(v, sizes, 0);
	CU_ASSERT_EQUAL(v[0], 2);
	CU_ASSERT_EQUAL(v[1], 12);
	CU_ASSERT_EQUAL(v[2], 21);
	CU_ASSERT_EQUAL(atomic_load(&split_blocks), 3 + 2);
	pph_shutdown();
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* A variant that gives up part way (a C++ backend's caught exception):
 * the call fails, its data as the variant left it. */
static void give_up_cpu(void *b[], void *arg)
{
	((int *)PPH_VECTOR_PTR(b[0]))[0]++;
	(void)arg;
	pph_variant_error("gave up");
}

static const struct pph_impl give_up_impls[] = { { PPH_ARCH_CPU, give_up_cpu, "give_up_cpu", 0 } };
static const struct pph_codelet give_up_cl = { "give_up", 1, give_up_impls, PPH_MODEL_DEFAULT };

static void give_up_calls(void)
{
	int v[2] = { 0, 0 };
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	unsigned long failed = pph_failed_calls();

	pph_vector_register(&h, v, 2, sizeof(int));
	/* on the calling thread or a worker, synchronous: the caller is told */
	CU_ASSERT_EQUAL(pph_call_sync(&give_up_cl, 1u << 0, 1, &h, &mode, NULL, 0), -ECANCELED);
	/* asynchronous: counted, nobody else is told */
	CU_ASSERT_EQUAL(pph_call_async(&give_up_cl, 1u << 0, 1, &h, &mode, NULL, 0), 0);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(v[0], 2); /* each ran once, as far as it went */
	CU_ASSERT_EQUAL(pph_failed_calls() - failed, 1);
}

static void test_variant_error(void)
{
	CU_ASSERT_EQUAL(test_stderr_count(give_up_calls,
					  "give_up: variant give_up_cpu failed: gave up; the call fails"),
			2);
}

/*
 * Asynchronous split calls (containers only): the caller goes on while the
 * blocks wait behind a gate, and what it submits next on the same handle
 * runs after their gather.  Blocks add one, a whole call doubles: three
 * calls submitted before the gate opens leave 2 (v + 1) + 1.
 */
static atomic_int gate_open, gated_blocks;

static void k_gated_inc(void *buffers[], void *arg)
{
	double waited = 0;

	while (!atomic_load(&gate_open) && waited < 10) { /* s: a hung test ends */
		usleep(1000);
		waited += 1e-3;
	}
	/* never tiny, once the gate is open: a block predicted under
	 * PEPPHER_TINY_US runs at once on the caller's thread (submit.c),
	 * which would wait at the gate */
	usleep(200);
	k_block_inc(buffers, arg);
	atomic_fetch_add(&gated_blocks, 1);
}

static void k_double(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++)
		v[i] *= 2;
}

static const struct pph_impl gated_impls[] = { { PPH_ARCH_CPU, k_gated_inc, "gated_cpu", 0 } };
static const struct pph_codelet gated_cl = { "gated_inc", 1, gated_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl double_impls[] = { { PPH_ARCH_CPU, k_double, "double_cpu", 0 } };
static const struct pph_codelet double_cl = { "double", 1, double_impls, PPH_MODEL_DEFAULT };

static void test_async_split(void)
{
	enum { N = 1001 };
	int *v = malloc(N * sizeof(int)), parts = 3, i, ok = 1;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	for (i = 0; i < N; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, N, sizeof(int)), 0);
	atomic_store(&gate_open, 0);
	atomic_store(&gated_blocks, 0);
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts,
						   NULL, 0),
			0);
	CU_ASSERT_EQUAL(pph_call_async(&double_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts,
						   NULL, 0),
			0);
	/* returned with no block run: the gate is shut */
	CU_ASSERT_EQUAL(atomic_load(&gated_blocks), 0);
	atomic_store(&gate_open, 1);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < N; i++)
		ok &= v[i] == 2 * (i + 1) + 1;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(atomic_load(&gated_blocks), 2 * parts);
	/* a mask allowing no variant: refused at its first block, said by
	 * the caller; its blocks gathered, the vector as it was */
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, 0, 1, &h, &mode, &parts, NULL, 0),
			-ENODEV);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_EQUAL(v[N - 1], 2 * N + 1);
	/* unregistered at once after another call: it waits for the gather */
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&gated_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts,
						   NULL, 0),
			0);
	pph_data_unregister(h);
	for (i = 0, ok = 1; i < N; i++)
		ok &= v[i] == 2 * (i + 1) + 2;
	CU_ASSERT_TRUE(ok);
	free(v);
}

/*
 * Asynchronous splits on one thread, whole calls doubling the same vector
 * on another: each whole call comes before or after a split's blocks,
 * never among them (its gather is listed with its scatter), so every
 * element sees the same sequence of +1 and x2: v[i] - v[0] = i 2^DOUBLES.
 */
enum { TWO_N = 1000, TWO_SPLITS = 300, TWO_DOUBLES = 12 };
static pph_data_handle two_h;

static void *two_threads_splits(void *arg)
{
	static const enum pph_access rw = PPH_RW;
	const int parts = 4;
	int k, failed = 0;

	(void)arg;
	for (k = 0; k < TWO_SPLITS; k++)
		failed |= pph_call_partitioned_async(&split_cl, 1u << 0, 1, &two_h, &rw, &parts,
						     NULL, 0) != 0;
	return failed ? NULL : arg;
}

static void test_async_split_two_threads(void)
{
	static int v[TWO_N];
	static const enum pph_access rw = PPH_RW;
	pthread_t th;
	void *ok_splits = NULL;
	int i, k, ok = 1;

	for (i = 0; i < TWO_N; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&two_h, v, TWO_N, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, two_threads_splits, &ok), 0);
	for (k = 0; k < TWO_DOUBLES; k++) {
		CU_ASSERT_EQUAL(pph_call_async(&double_cl, PPH_ALL_IMPLS, 1, &two_h, &rw, NULL, 0),
				0);
		usleep(500);
	}
	pthread_join(th, &ok_splits);
	CU_ASSERT_PTR_NOT_NULL(ok_splits);
	CU_ASSERT_EQUAL(pph_data_acquire(two_h, PPH_R), 0);
	for (i = 0; i < TWO_N; i++)
		ok &= v[i] - v[0] == i << TWO_DOUBLES;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(two_h);
}

/* A block that gives up in an asynchronous split: the call is said and
 * counted once, when it ends; the other blocks' work stays. */
static void give_up_first_block(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);

	(void)arg;
	if (v[0] == 0) { /* the first block's first element */
		pph_variant_error("block 0 gave up");
		return;
	}
	k_block_inc(b, arg);
}

static const struct pph_impl give_up_block_impls[] = {
	{ PPH_ARCH_CPU, give_up_first_block, "give_up_block_cpu", 0 },
};
static const struct pph_codelet give_up_block_cl = { "give_up_block", 1, give_up_block_impls,
						     PPH_MODEL_DEFAULT };
static int async_failed_ok;

static void async_split_fails(void)
{
	int v[6] = { 0, 1, 2, 3, 4, 5 }, parts = 3;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	unsigned long failed = pph_failed_calls();

	pph_vector_register(&h, v, 6, sizeof(int));
	async_failed_ok = pph_call_partitioned_async(&give_up_block_cl, PPH_ALL_IMPLS, 1, &h,
						     &mode, &parts, NULL, 0) == 0;
	pph_data_unregister(h);
	async_failed_ok &= v[0] == 0 && v[1] == 1 && v[2] == 3 && v[5] == 6;
	async_failed_ok &= pph_failed_calls() - failed == 1;
}

static void test_async_split_failure(void)
{
	CU_ASSERT_EQUAL(test_stderr_count(async_split_fails,
					  "give_up_block: variant give_up_block_cpu failed: block 0 gave up; the call fails"),
			1);
	CU_ASSERT_TRUE(async_failed_ok);
}

/* See container_race.h. */
static void test_container_race(void)
{
	CU_ASSERT_EQUAL(container_race(), 0);
}

/* See call_errno.h: as the scheduler runs the calls (mostly on this
 * thread, a worker idle), then with PEPPHER_UNDEFERRED=0, which sends
 * every task to a worker. */
static void test_call_errno(void)
{
	int elsewhere = 0;

	CU_ASSERT_EQUAL(call_errno(&elsewhere), 0);
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(call_errno(&elsewhere), 0);
	CU_ASSERT(elsewhere >= ERRNO_CALLS);
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

/* See call_fpenv.h: as the scheduler runs the calls, then every one on
 * a worker (PEPPHER_UNDEFERRED=0). */
static void test_call_fpenv(void)
{
	CU_ASSERT_EQUAL(call_fpenv(), 0);
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(call_fpenv(), 0);
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

/* See call_caller_thread.h: as the scheduler runs the calls, then with
 * every other call on a worker (PEPPHER_UNDEFERRED=0). */
static void test_caller_thread(void)
{
	check_caller_thread();
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	check_caller_thread();
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

void add_wrappers_tests(CU_pSuite s)
{
	CU_add_test(s, "a container read by two threads, one calling a component on it",
		    test_container_race);
	CU_add_test(s, "a variant that gives up fails its call",
		    test_variant_error);
	CU_add_test(s, "synchronous call", test_sync_call);
	CU_add_test(s, "errno: the variant's after a synchronous call, the caller's after others",
		    test_call_errno);
	CU_add_test(s, "the caller's rounding and traps in the variant, its flags back",
		    test_call_fpenv);
	CU_add_test(s, "a variant for the caller's thread runs there, in its data's order",
		    test_caller_thread);
	CU_add_test(s, "asynchronous split calls: the caller goes on, later calls wait for the gather",
		    test_async_split);
	CU_add_test(s, "a block failing in an asynchronous split: said and counted once",
		    test_async_split_failure);
	CU_add_test(s, "asynchronous splits and whole calls from two threads on one vector",
		    test_async_split_two_threads);
	CU_add_test(s, "a split call from a thread with a 32 KiB stack", test_small_stack_split);
	CU_add_test(s, "a split for the CPU workers alone: a block per worker, one thread each",
		    test_cpu_only_split);
	CU_add_test(s, "a split into more blocks than elements: a block each",
		    test_split_more_blocks_than_elements);
	CU_add_test(s, "partition=auto over fewer elements than workers: a block each",
		    test_auto_split_fewer_elements_than_workers);
}
