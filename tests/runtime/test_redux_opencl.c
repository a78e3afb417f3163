/*
 * Reductions (PPH_REDUX) with contributions on a device with memory of its
 * own (PoCL's OpenCL CPU device): each device contribution gets an
 * accumulator there, set to the identity, and brings it home after its run;
 * the host combines every accumulator in submission order.  Exact transfer
 * counts, results against a sequential fold, a failing kernel, split calls.
 * Skipped (77) without an OpenCL device.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include <peppher/opencl.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "testutil.h"

enum { CPU = 0, OCL = 1 };
#define N 1000

/* The terms [lo, hi) of x, added into the accumulator: one work-item, in
 * index order, as the CPU variant adds. */
static const char *const kernels_src =
	"__kernel void add_terms(__global const int *x, int lo, int hi, __global long *acc)\n"
	"{ long s = 0; for (int i = lo; i < hi; i++) s += x[i]; acc[0] += s; }\n"
	"__kernel void histogram(__global const int *x, int n, int bins, int ld,\n"
	"			__global int *h)\n"
	"{ for (int i = 0; i < n; i++) h[(x[i] % bins) / 8 * ld + (x[i] % bins) % 8] += 1; }\n";

struct range {
	int lo, hi;
};

static atomic_int ocl_runs;

static void add_terms_cpu(void *b[], void *arg)
{
	const int *x = PPH_VECTOR_PTR(b[0]);
	long *acc = PPH_VARIABLE_PTR(b[1]), s = 0;
	const struct range *r = arg;
	int i;

	for (i = r->lo; i < r->hi; i++)
		s += x[i];
	*acc += s;
}

static void launch_add_terms(const char *src, void *b[], const struct range *r)
{
	cl_kernel k = pph_opencl_kernel_source(src, "add_terms");
	cl_mem x = PPH_OPENCL_MEM(b[0]), acc = PPH_OPENCL_MEM(b[1]);
	size_t one = 1;

	if (!k) {
		pph_variant_failed();
		return;
	}
	atomic_fetch_add(&ocl_runs, 1);
	clSetKernelArg(k, 0, sizeof(x), &x);
	clSetKernelArg(k, 1, sizeof(int), &r->lo);
	clSetKernelArg(k, 2, sizeof(int), &r->hi);
	clSetKernelArg(k, 3, sizeof(acc), &acc);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, &one, 0, NULL, NULL);
}

static void add_terms_ocl(void *b[], void *arg)
{
	launch_add_terms(kernels_src, b, arg);
}

static const struct pph_impl add_terms_impls[] = {
	{ PPH_ARCH_CPU, add_terms_cpu, "add_terms_cpu", 0 },
	{ PPH_ARCH_OPENCL, add_terms_ocl, "add_terms_ocl", 0 },
};
static const struct pph_codelet add_terms_cl = { "redux_add_terms", 2, add_terms_impls,
						 PPH_MODEL_DEFAULT };

/* An operator whose result depends on the order of the folds: into * 3 +
 * from.  Only a fold in submission order gives the sequential result. */
static void ordered_init(void *e)
{
	*(long *)e = 0;
}

static void ordered_combine(void *into, const void *from)
{
	*(long *)into = *(long *)into * 3 + *(const long *)from;
}

static const struct pph_reduction ordered_op = { ordered_init, ordered_combine };

static long block_sum(const int *x, int lo, int hi)
{
	long s = 0;

	for (; lo < hi; lo++)
		s += x[lo];
	return s;
}

/* Contribution k adds the k-th block of x, on the CPU for even k and on
 * the device for odd k: x goes to the device once, each device
 * accumulator there and back, and the fold is the sequential one. */
static void test_mixed_contributions(void)
{
	enum { K = 8 };
	int x[N], k;
	long result = 5, expected = 5;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };

	for (k = 0; k < N; k++)
		x[k] = k * 7 - 300;
	pph_vector_register(&h[0], x, N, sizeof(int));
	pph_variable_register(&h[1], &result, sizeof(result));
	CU_ASSERT_EQUAL_FATAL(pph_data_set_reduction(h[1], &ordered_op), 0);
	pph_transfer_stats_reset();
	atomic_store(&ocl_runs, 0);
	for (k = 0; k < K; k++) {
		struct range r = { k * N / K, (k + 1) * N / K };

		CU_ASSERT_EQUAL(pph_call_async(&add_terms_cl, 1u << (k % 2 ? OCL : CPU), 2, h,
					       modes, &r, sizeof(r)),
				0);
		expected = expected * 3 + block_sum(x, r.lo, r.hi);
	}
	CU_ASSERT_EQUAL(pph_data_acquire(h[1], PPH_R), 0);
	CU_ASSERT_EQUAL(result, expected);
	CU_ASSERT_EQUAL(atomic_load(&ocl_runs), K / 2);
	expect_transfers(1 + K / 2, N * sizeof(int) + K / 2 * sizeof(long), K / 2, K / 2 * sizeof(long),
	       __LINE__);
	pph_data_unregister(h[1]);
	pph_data_unregister(h[0]);
}

/* With every variant allowed, dmda explores the uncalibrated device
 * variant too (a codelet of its own: no history yet): whatever it picks,
 * the result is exact.  Asynchronous calls: a synchronous one's task may
 * run on the calling thread. */
static const struct pph_codelet add_terms_any_cl = { "redux_add_terms_any", 2, add_terms_impls,
						     PPH_MODEL_DEFAULT };

static void test_any_variant(void)
{
	int x[N], k, calls = 12;
	long result = 0, expected = 0;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };

	for (k = 0; k < N; k++)
		x[k] = k % 13;
	pph_vector_register(&h[0], x, N, sizeof(int));
	pph_variable_register(&h[1], &result, sizeof(result));
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_LONG));
	atomic_store(&ocl_runs, 0);
	for (k = 0; k < calls; k++) {
		struct range r = { 0, N - k };

		CU_ASSERT_EQUAL(pph_call_async(&add_terms_any_cl, PPH_ALL_IMPLS, 2, h, modes, &r,
					       sizeof(r)),
				0);
		expected += block_sum(x, r.lo, r.hi);
	}
	pph_data_unregister(h[1]);
	pph_data_unregister(h[0]);
	CU_ASSERT_EQUAL(result, expected);
	CU_ASSERT_TRUE(atomic_load(&ocl_runs) > 0);
}

/* A device variant whose kernel does not build: the contribution runs on
 * the CPU, from a fresh accumulator, and the result is exact. */
static void add_terms_broken_ocl(void *b[], void *arg)
{
	launch_add_terms("__kernel void add_terms(__global long *acc) { acc[0] += ; }", b, arg);
}

static const struct pph_impl broken_impls[] = {
	{ PPH_ARCH_OPENCL, add_terms_broken_ocl, "add_terms_broken_ocl", 0 },
	{ PPH_ARCH_CPU, add_terms_cpu, "add_terms_cpu", 0 },
};
static const struct pph_codelet broken_cl = { "redux_add_terms_broken", 2, broken_impls,
					      PPH_MODEL_DEFAULT };

static void broken_calls(void)
{
	int x[N], k;
	long result = 0;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	struct range r = { 0, N };

	for (k = 0; k < N; k++)
		x[k] = k;
	pph_vector_register(&h[0], x, N, sizeof(int));
	pph_variable_register(&h[1], &result, sizeof(result));
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_LONG));
	/* dmda tries the uncalibrated device variant among the first calls */
	for (k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(pph_call_async(&broken_cl, PPH_ALL_IMPLS, 2, h, modes, &r,
					       sizeof(r)),
				0);
	pph_data_unregister(h[1]);
	pph_data_unregister(h[0]);
	CU_ASSERT_EQUAL(result, 10L * N * (N - 1) / 2);
}

static void test_failing_kernel(void)
{
	CU_ASSERT_EQUAL(test_stderr_count(broken_calls, "variant add_terms_broken_ocl disabled"),
			1);
}

/* A histogram: each contribution counts its block of x into bins, a
 * matrix of 4 x 8 counters with a leading dimension of 10 (a block of a
 * larger array).  The device's accumulator is packed, the host's fold
 * keeps the leading dimension, and the columns past 8 stay untouched. */
static void histogram_cpu(void *b[], void *arg)
{
	const int *x = PPH_VECTOR_PTR(b[0]);
	int *h = PPH_MATRIX_PTR(b[1]);
	size_t i, n = PPH_VECTOR_N(b[0]), ld = PPH_MATRIX_LD(b[1]);

	(void)arg;
	for (i = 0; i < n; i++)
		h[(size_t)(x[i] % 32) / 8 * ld + (size_t)(x[i] % 32) % 8] += 1;
}

static void histogram_ocl(void *b[], void *arg)
{
	cl_kernel k = pph_opencl_kernel_source(kernels_src, "histogram");
	cl_mem x = PPH_OPENCL_MEM(b[0]), h = PPH_OPENCL_MEM(b[1]);
	int n = (int)PPH_VECTOR_N(b[0]), bins = 32, ld = (int)PPH_MATRIX_LD(b[1]);
	size_t one = 1;

	(void)arg;
	if (!k) {
		pph_variant_failed();
		return;
	}
	atomic_fetch_add(&ocl_runs, 1);
	clSetKernelArg(k, 0, sizeof(x), &x);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(bins), &bins);
	clSetKernelArg(k, 3, sizeof(ld), &ld);
	clSetKernelArg(k, 4, sizeof(h), &h);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, &one, 0, NULL, NULL);
}

static const struct pph_impl histogram_impls[] = {
	{ PPH_ARCH_CPU, histogram_cpu, "histogram_cpu", 0 },
	{ PPH_ARCH_OPENCL, histogram_ocl, "histogram_ocl", 0 },
};
static const struct pph_codelet histogram_cl = { "redux_histogram", 2, histogram_impls,
						 PPH_MODEL_DEFAULT };

static void test_histogram_split(void)
{
	enum { M = 4096, ROWS = 4, COLS = 8, LD = 10 };
	static int x[M];
	int bins[ROWS * LD], expected[ROWS * LD], i, round;
	pph_data_handle h[2];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	int parts[2] = { 0, -1 }; /* x split, one block per worker; the bins whole */

	for (i = 0; i < M; i++)
		x[i] = (i * 2654435761u) >> 7 & 0xffff;
	for (i = 0; i < ROWS * LD; i++)
		bins[i] = expected[i] = i % LD >= COLS ? -7 : 0;
	pph_vector_register(&h[0], x, M, sizeof(int));
	pph_matrix_register(&h[1], bins, ROWS, COLS, LD, sizeof(int));
	pph_data_set_reduction(h[1], pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_INT));
	atomic_store(&ocl_runs, 0);
	for (round = 0; round < 10; round++) {
		CU_ASSERT_EQUAL(pph_call_partitioned(&histogram_cl, PPH_ALL_IMPLS, 2, h, modes,
						     parts, NULL, 0),
				0);
		for (i = 0; i < M; i++)
			expected[x[i] % 32 / 8 * LD + x[i] % 32 % 8]++;
	}
	pph_data_unregister(h[1]);
	pph_data_unregister(h[0]);
	CU_ASSERT_EQUAL(memcmp(bins, expected, sizeof(bins)), 0);
	/* split among kinds: the device had blocks too */
	CU_ASSERT_TRUE(atomic_load(&ocl_runs) > 0);
}

/* Contribution k writes (k + 1) into element k of its accumulator on the
 * device (test_contributions_from_identity). */
static void write_one_ocl(void *b[], void *arg)
{
	int k = *(const int *)arg, x = k + 1;

	clEnqueueWriteBuffer(pph_opencl_queue(), PPH_OPENCL_MEM(b[0]), CL_TRUE, k * sizeof(int),
			     sizeof(x), &x, 0, NULL, NULL);
}

static const struct pph_impl write_one_impls[] = { { PPH_ARCH_OPENCL, write_one_ocl,
						     "write_one_ocl", 0 } };
static const struct pph_codelet write_one_cl = { "redux_write_one", 1, write_one_impls,
						 PPH_MODEL_DEFAULT };

static void test_identity_on_device(void)
{
	test_contributions_from_identity(&write_one_cl);
}

static int suite_init(void)
{
	return pph_init();
}

static int suite_clean(void)
{
	pph_shutdown();
	return 0;
}

int main(void)
{
	CU_pSuite s;
	int failed;

	setenv("PEPPHER_NCPU", "1", 1);
	if (!test_home_begin("redux-opencl") || pph_init() != 0)
		return 1;
	/* no OpenCL device (or no OpenCL build): nothing to test here */
	failed = pph_worker_count_arch(PPH_ARCH_OPENCL) == 0;
	pph_shutdown();
	if (failed) {
		printf("no OpenCL device: skipped\n");
		test_home_end();
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("reductions on a device", suite_init, suite_clean);
	CU_add_test(s, "CPU and device contributions folded in submission order",
		    test_mixed_contributions);
	CU_add_test(s, "dmda's choices: every result exact", test_any_variant);
	CU_add_test(s, "a kernel that does not build: the CPU contributes",
		    test_failing_kernel);
	CU_add_test(s, "a histogram split among kinds, bins with a leading dimension",
		    test_histogram_split);
	CU_add_test(s, "contributions on the device start from the identity",
		    test_identity_on_device);
	failed = test_run_registry();
	test_home_end();
	return failed;
}
