/*
 * The CUDA driver on a real GPU: exact transfer counts and results with
 * variants that use the CUDA runtime API on the worker's device pointers,
 * a padded matrix's 2-D copies, a failed CUDA call, and reduction
 * contributions on the device (written after the last lease: not run on a
 * GPU yet).  Returns 77
 * (skipped) where there is no CUDA device, as on machines without a GPU or
 * driver.  (The first test ran on an H100 on 2026-11-25; the other two were
 * written after that machine had gone.)
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include <peppher/cuda.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "testutil.h"

#define N 4096

/* v[i] bytes = 0x01 on the device: every int becomes 0x01010101 */
static void memset_cuda(void *b[], void *arg)
{
	(void)arg;
	cudaMemsetAsync(PPH_VECTOR_PTR(b[0]), 1, PPH_VECTOR_N(b[0]) * sizeof(int),
			pph_cuda_stream());
}

/* dst = src on the device */
static void copy_cuda(void *b[], void *arg)
{
	(void)arg;
	cudaMemcpyAsync(PPH_VECTOR_PTR(b[1]), PPH_VECTOR_PTR(b[0]),
			PPH_VECTOR_N(b[0]) * sizeof(int), cudaMemcpyDeviceToDevice,
			pph_cuda_stream());
}

/* every byte of the packed device matrix = 0x02 */
static void fill_matrix_cuda(void *b[], void *arg)
{
	(void)arg;
	cudaMemsetAsync(PPH_MATRIX_PTR(b[0]), 2,
			PPH_MATRIX_LD(b[0]) * PPH_MATRIX_ROWS(b[0]) * PPH_MATRIX_ELEMSIZE(b[0]),
			pph_cuda_stream());
}

/* a call the CUDA runtime refuses (no such device memory): the variant
 * fails at the driver's synchronisation, the CPU variant runs instead */
static void bad_cuda(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	cudaMemsetAsync((char *)NULL + 64, 0, 4096, pph_cuda_stream());
}

static void add_one_cpu(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		v[i]++;
}

static const struct pph_impl fill_matrix_impls[] = { { PPH_ARCH_CUDA, fill_matrix_cuda, "fill_matrix_cuda", 0 } };
static const struct pph_codelet fill_matrix_cl = { "cuda_fill_matrix", 1, fill_matrix_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl add_one_impls[] = { { PPH_ARCH_CUDA, bad_cuda, "bad_cuda", 0 },
						 { PPH_ARCH_CPU, add_one_cpu, "add_one_cpu", 0 } };
static const struct pph_codelet add_one_cl = { "cuda_add_one", 2, add_one_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl memset_impls[] = { { PPH_ARCH_CUDA, memset_cuda, "memset_cuda", 0 } };
static const struct pph_codelet memset_cl = { "cuda_memset", 1, memset_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl copy_impls[] = { { PPH_ARCH_CUDA, copy_cuda, "copy_cuda", 0 } };
static const struct pph_codelet copy_cl = { "cuda_copy", 1, copy_impls, PPH_MODEL_DEFAULT };

static void test_transfers(void)
{
	static int src[N], dst[N];
	pph_data_handle hs, hd;
	struct pph_transfer_stats st;
	pph_data_handle both[2];
	enum pph_access modes[2] = { PPH_R, PPH_W };
	enum pph_access w = PPH_W;
	int i, ok = 1;

	pph_vector_register(&hs, src, N, sizeof(int));
	pph_vector_register(&hd, dst, N, sizeof(int));
	both[0] = hs;
	both[1] = hd;
	pph_transfer_stats_reset();
	CU_ASSERT_EQUAL(pph_call_sync(&memset_cl, PPH_ALL_IMPLS, 1, &hs, &w, NULL, 0), 0); /* no copy in */
	CU_ASSERT_EQUAL(pph_call_sync(&copy_cl, PPH_ALL_IMPLS, 2, both, modes, NULL, 0), 0); /* none either */
	pph_transfer_stats_get(&st);
	CU_ASSERT_EQUAL(st.to_device, 0);
	CU_ASSERT_EQUAL(st.to_host, 0);
	CU_ASSERT_EQUAL(pph_data_acquire(hd, PPH_R), 0); /* one copy back */
	for (i = 0; i < N; i++)
		ok &= dst[i] == 0x01010101;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(hd);
	pph_data_unregister(hs); /* src comes back too */
	pph_transfer_stats_get(&st);
	CU_ASSERT_EQUAL(st.to_device, 0);
	CU_ASSERT_EQUAL(st.to_host, 2);
	CU_ASSERT_EQUAL(st.bytes_to_host, 2 * N * sizeof(int));
	CU_ASSERT_EQUAL(src[N - 1], 0x01010101);
}

/* A matrix with a leading dimension wider than its rows goes to the device
 * packed and comes back into its rows only: the padding is not touched. */
static void test_matrix_ld(void)
{
	enum { ROWS = 37, COLS = 29, LD = 32 };
	static short m[ROWS * LD];
	struct pph_transfer_stats st;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	int i, j, ok = 1;

	for (i = 0; i < ROWS * LD; i++)
		m[i] = -1;
	pph_matrix_register(&h, m, ROWS, COLS, LD, sizeof(short));
	pph_transfer_stats_reset();
	CU_ASSERT_EQUAL(pph_call_sync(&fill_matrix_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	pph_data_unregister(h);
	for (i = 0; i < ROWS; i++)
		for (j = 0; j < LD; j++)
			ok &= m[i * LD + j] == (j < COLS ? 0x0202 : -1);
	CU_ASSERT_TRUE(ok);
	pph_transfer_stats_get(&st);
	CU_ASSERT_EQUAL(st.to_device, 1);
	CU_ASSERT_EQUAL(st.to_host, 1);
	CU_ASSERT_EQUAL(st.bytes_to_device, ROWS * COLS * sizeof(short));
	CU_ASSERT_EQUAL(st.bytes_to_host, ROWS * COLS * sizeof(short));
}

/* A CUDA variant whose call fails: a call allowed only that variant fails
 * and leaves the data as it was; a call allowed both runs the CPU variant on
 * the data as it was, and succeeds. */
static void test_failed_variant(void)
{
	static int v[N];
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	int i, ok = 1;

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	CU_ASSERT_NOT_EQUAL(pph_call_sync(&add_one_cl, 1u << 0, 1, &h, &rw, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < N; i++)
		ok &= v[i] == i;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(pph_call_sync(&add_one_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	pph_data_unregister(h);
	for (i = 0, ok = 1; i < N; i++)
		ok &= v[i] == i + 1;
	CU_ASSERT_TRUE(ok);
}

/* Contribution k writes (k + 1) into element k of its accumulator on the
 * device (test_contributions_from_identity). */
static void write_one_cuda(void *b[], void *arg)
{
	int k = *(const int *)arg, x = k + 1;

	cudaMemcpyAsync((int *)PPH_VECTOR_PTR(b[0]) + k, &x, sizeof(x), cudaMemcpyHostToDevice,
			pph_cuda_stream());
	cudaStreamSynchronize(pph_cuda_stream()); /* x is on this stack */
}

static const struct pph_impl write_one_impls[] = { { PPH_ARCH_CUDA, write_one_cuda,
						     "write_one_cuda", 0 } };
static const struct pph_codelet write_one_cl = { "cuda_write_one", 1, write_one_impls,
						 PPH_MODEL_DEFAULT };

static void test_reduction(void)
{
	test_contributions_from_identity(&write_one_cl);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	setenv("PEPPHER_NCPU", "1", 1);
	setenv("PEPPHER_NOPENCL", "0", 1);
	if (pph_init() != 0)
		return 1;
	if (pph_worker_count_arch(PPH_ARCH_CUDA) == 0) {
		pph_shutdown();
		printf("no CUDA device: skipped\n");
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("driver_cuda", NULL, NULL);
	CU_add_test(s, "device-only work moves nothing until the host reads", test_transfers);
	CU_add_test(s, "a matrix with padding goes packed and comes back into its rows",
		    test_matrix_ld);
	CU_add_test(s, "a failed CUDA call: the CPU variant runs on the data as it was",
		    test_failed_variant);
	CU_add_test(s, "reduction contributions on the device start from the identity",
		    test_reduction);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() != 0 || CU_get_error() != CUE_SUCCESS;
	CU_cleanup_registry();
	pph_shutdown();
	return failed;
}
