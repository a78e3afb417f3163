/*
 * libpeppher-starpu with an OpenCL device (PoCL's): an OpenCL variant whose
 * kernel does not build, in calls StarPU placed on the device.  The task
 * cannot move, so a CPU variant runs on host copies of its data there:
 * a split call is whole, asynchronous calls and reduction contributions
 * are all done; calls held to it fail, with the calls waiting on them.
 * And contributions to reductions on the device, their
 * copies set by the init codelet on OpenCL.  Data larger than
 * STARPU_LIMIT_OPENCL_MEM run on the CPU, or fail (StarPU waited for room
 * for good).  A kernel that cannot be built, found or read is said naming
 * the variant, as libpeppher says it.  Empty vectors and matrices run
 * there (StarPU aborted allocating 0 bytes).  Data written there call
 * after call is copied home once, and not at all where its container frees
 * it.  Skipped (77) without an OpenCL device.
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/opencl.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define N 4000

static void add_cpu(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);
	size_t i;

	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		v[i] += *(const int *)arg;
}

static void broken_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	if (!pph_opencl_kernel_source("__kernel void k(__global int *v) { v[0] += ; }", "k"))
		pph_variant_failed();
}

/* the device variant first: calls uncalibrated on both go to it too */
static const struct pph_impl add_impls[] = {
	{ PPH_ARCH_OPENCL, broken_ocl, "add_broken_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "add_cpu", 0 },
};
static const struct pph_codelet split_cl = { "sp_add_broken_split", 2, add_impls,
					     PPH_MODEL_HISTORY };
static const struct pph_codelet async_cl = { "sp_add_broken_async", 2, add_impls,
					     PPH_MODEL_HISTORY };
static const struct pph_codelet held_cl = { "sp_add_broken_held", 2, add_impls,
					    PPH_MODEL_HISTORY };

static void test_split_call(void)
{
	static int v[N];
	int i, ok = 1, round, parts = 8, x = 1;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	for (round = 0; round < 4; round++)
		CU_ASSERT_EQUAL(pph_call_partitioned(&split_cl, PPH_ALL_IMPLS, 1, &h, &rw, &parts,
						     &x, sizeof(x)),
				0);
	/* held to the device variant: the call fails, its data as it was */
	CU_ASSERT_EQUAL(pph_call_partitioned(&held_cl, 1u << 0, 1, &h, &rw, &parts, &x, sizeof(x)),
			-EIO);
	pph_data_unregister(h);
	for (i = 0; i < N; i++)
		ok &= v[i] == i + 4;
	CU_ASSERT_TRUE(ok);
}

static void test_async_calls(void)
{
	enum { K = 12 };
	static int v[K][64];
	int i, k, ok = 1;
	pph_data_handle h[K];
	enum pph_access rw = PPH_RW;

	for (k = 0; k < K; k++) {
		for (i = 0; i < 64; i++)
			v[k][i] = i;
		pph_vector_register(&h[k], v[k], 64, sizeof(int));
		CU_ASSERT_EQUAL(pph_call_async(&async_cl, PPH_ALL_IMPLS, 1, &h[k], &rw, &k,
					       sizeof(k)),
				0);
	}
	for (k = 0; k < K; k++) {
		pph_data_unregister(h[k]);
		for (i = 0; i < 64; i++)
			ok &= v[k][i] == i + k;
	}
	CU_ASSERT_TRUE(ok);
}

/* A chain of calls on one vector held to the device variant, waiting on
 * a CPU task until all are submitted: the first finds the kernel broken,
 * the others, ready once it failed, have no variant left; each fails, the
 * data as it was (StarPU's dmda aborted: a ready task no worker could
 * execute). */
static const struct pph_codelet chain_cl = { "sp_add_broken_chain", 2, add_impls,
					     PPH_MODEL_HISTORY };
static atomic_int gate_open;

static void wait_gate_cpu(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	while (!atomic_load(&gate_open))
		sched_yield();
}

static const struct pph_impl gate_impls[] = { { PPH_ARCH_CPU, wait_gate_cpu, "wait_gate_cpu", 0 } };
static const struct pph_codelet gate_cl = { "sp_gate", 1, gate_impls, PPH_MODEL_DEFAULT };

static void test_chained_calls(void)
{
	static int v[64];
	int i, k, ok = 1, x = 1;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;

	unsigned long failed = pph_failed_calls();

	for (i = 0; i < 64; i++)
		v[i] = i;
	pph_vector_register(&h, v, 64, sizeof(int));
	CU_ASSERT_EQUAL(pph_call_async(&gate_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	for (k = 0; k < 5; k++)
		CU_ASSERT_EQUAL(pph_call_async(&chain_cl, 1u << 0, 1, &h, &rw, &x, sizeof(x)), 0);
	atomic_store(&gate_open, 1);
	pph_data_unregister(h);
	for (i = 0; i < 64; i++)
		ok &= v[i] == i;
	CU_ASSERT_TRUE(ok);
	pph_task_wait_all(); /* the tasks' ends counted too (their callbacks) */
	CU_ASSERT_EQUAL(pph_failed_calls() - failed, 5);
}

/* sums of blocks into a reduction: on a working kernel and a broken one */
static const char *const sum_src =
	"__kernel void sum(__global const int *x, int n, __global long *acc)\n"
	"{ long s = 0; for (int i = 0; i < n; i++) s += x[i]; acc[0] += s; }\n";

static void sum_cpu(void *b[], void *arg)
{
	const int *x = PPH_VECTOR_PTR(b[0]);
	long *acc = PPH_VARIABLE_PTR(b[1]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		*acc += x[i];
}

static int ocl_sums;

static void sum_ocl(void *b[], void *arg)
{
	cl_kernel k = pph_opencl_kernel_source(sum_src, "sum");
	cl_mem x = PPH_OPENCL_MEM(b[0]), acc = PPH_OPENCL_MEM(b[1]);
	int n = (int)PPH_VECTOR_N(b[0]);
	size_t one = 1;

	(void)arg;
	if (!k) {
		pph_variant_failed();
		return;
	}
	__atomic_add_fetch(&ocl_sums, 1, __ATOMIC_RELAXED);
	clSetKernelArg(k, 0, sizeof(x), &x);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(acc), &acc);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, &one, 0, NULL, NULL);
}

static const struct pph_impl sum_impls[] = {
	{ PPH_ARCH_OPENCL, sum_ocl, "sum_ocl", 0 },
	{ PPH_ARCH_CPU, sum_cpu, "sum_cpu", 0 },
};
static const struct pph_codelet sum_cl = { "sp_sum", 2, sum_impls, PPH_MODEL_HISTORY };
static const struct pph_impl broken_sum_impls[] = {
	{ PPH_ARCH_OPENCL, broken_ocl, "sum_broken_ocl", 0 },
	{ PPH_ARCH_CPU, sum_cpu, "sum_cpu", 0 },
};
static const struct pph_codelet broken_sum_cl = { "sp_sum_broken", 2, broken_sum_impls,
						  PPH_MODEL_HISTORY };

static long reduce(const struct pph_codelet *cl, unsigned mask, const int *x)
{
	enum { BLOCKS = 8 };
	long sum = 5;
	pph_data_handle hx, hs, blocks[BLOCKS];
	enum pph_access modes[2] = { PPH_R, PPH_REDUX };
	int k;

	pph_vector_register(&hx, (void *)x, N, sizeof(int));
	pph_variable_register(&hs, &sum, sizeof(sum));
	pph_data_set_reduction(hs, pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_LONG));
	pph_data_partition(hx, BLOCKS, blocks);
	for (k = 0; k < BLOCKS; k++) {
		pph_data_handle h[2] = { blocks[k], hs };

		CU_ASSERT_EQUAL(pph_call_async(cl, mask, 2, h, modes, NULL, 0), 0);
	}
	pph_data_unpartition(hx, BLOCKS, blocks);
	pph_data_unregister(hs);
	pph_data_unregister(hx);
	return sum;
}

static void test_reductions(void)
{
	static int x[N];
	long expect = 5;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = (i * 7919) % 2001 - 1000;
		expect += x[i];
	}
	/* on the device alone: its copies set there by the init codelet */
	CU_ASSERT_EQUAL(reduce(&sum_cl, 1u << 0, x), expect);
	CU_ASSERT_EQUAL(ocl_sums, 8);
	CU_ASSERT_EQUAL(reduce(&sum_cl, PPH_ALL_IMPLS, x), expect);
	CU_ASSERT_EQUAL(reduce(&broken_sum_cl, PPH_ALL_IMPLS, x), expect);
}

static atomic_int big_on_device;

static void mark_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	atomic_fetch_add(&big_on_device, 1);
}

static const struct pph_impl big_impls[] = {
	{ PPH_ARCH_OPENCL, mark_ocl, "big_mark_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "big_add_cpu", 0 },
};
static const struct pph_codelet big_cl = { "sp_big", 2, big_impls, PPH_MODEL_HISTORY };
static const struct pph_codelet big_device_cl = { "sp_big_device", 1, big_impls,
						  PPH_MODEL_HISTORY };

/* 2 MiB under STARPU_LIMIT_OPENCL_MEM=1 (main): on the CPU, or refused */
static void test_beyond_device_limit(void)
{
	enum { M = 512 * 1024 };
	static int v[M];
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	int i, ok = 1, x = 3;

	alarm(60); /* StarPU waited for room for good */
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, M, sizeof(int)), 0);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&big_cl, PPH_ALL_IMPLS, 1, &h, &rw, &x, sizeof(x)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&big_device_cl, PPH_ALL_IMPLS, 1, &h, &rw, &x, sizeof(x)),
			-ENOMEM);
	pph_data_unregister(h);
	alarm(0);
	for (i = 0; i < M; i++)
		ok &= v[i] == 12;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(atomic_load(&big_on_device), 0);
}

/* Three OpenCL variants whose kernels fail three ways, each call held to
 * one: the messages name the kernel, where it came from and the variant. */
static void syntax_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	pph_opencl_kernel_source("__kernel void s(__global int *v) { v[0] = ; }", "s");
}

static void unnamed_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	pph_opencl_kernel_source("__kernel void t(__global int *v) { v[0] = 1; }", "other");
}

static void unreadable_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	pph_opencl_kernel("/nonexistent/peppher/k.cl", "k");
}

static const struct pph_impl messages_impls[] = {
	{ PPH_ARCH_OPENCL, syntax_ocl, "syntax_ocl", 0 },
	{ PPH_ARCH_OPENCL, unnamed_ocl, "unnamed_ocl", 0 },
	{ PPH_ARCH_OPENCL, unreadable_ocl, "unreadable_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "add_cpu_fallback", 0 },
};
static const struct pph_codelet messages_cl = { "sp_kernel_messages", 4, messages_impls,
						PPH_MODEL_HISTORY };

static void test_kernel_messages(void)
{
	static const char *const said[] = {
		"peppher: OpenCL: building the source given to pph_opencl_kernel_source (kernel s) "
		"for variant syntax_ocl failed:",
		"peppher: OpenCL: no kernel other in the source given to pph_opencl_kernel_source "
		"for variant unnamed_ocl (clCreateKernel error -46)",
		"peppher: OpenCL: cannot read /nonexistent/peppher/k.cl for variant unreadable_ocl: "
		"No such file or directory",
	};
	char path[] = "/tmp/peppher-messages-XXXXXX", text[65536];
	int fd = mkstemp(path), saved = dup(2), v[16] = { 0 }, x = 1;
	unsigned i;
	ssize_t len;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;

	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	unlink(path);
	pph_vector_register(&h, v, 16, sizeof(int));
	fflush(stderr);
	dup2(fd, 2);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&messages_cl, 1u << i, 1, &h, &rw, &x, sizeof(x)), -EIO);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(v[0], 0); /* no variant ran */
	len = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	CU_ASSERT_FATAL(len > 0);
	text[len] = '\0';
	for (i = 0; i < 3; i++)
		if (!strstr(text, said[i])) {
			CU_FAIL("a kernel message is not as expected");
			fprintf(stderr, "expected: %s\nin:\n%s\n", said[i], text);
		}
}

/*
 * Empty data on the device: a vector of 0 elements, matrices of 0 rows or
 * 0 columns.  StarPU allocated 0 bytes there (CL_INVALID_BUFFER_SIZE) and
 * aborted the process; the variants now run, see the data empty, and
 * write their result (a total of nothing is 0), on an OpenCL-only
 * codelet, on both kinds of a mixed one, and through pph_call_partitioned
 * (whole: nothing to split).  The caller's memory is never touched.
 */
static const char *const total_src =
	"__kernel void total(__global const float *x, int n, __global float *r)\n"
	"{ float s = 0; for (int i = 0; i < n; i++) s += x[i]; r[0] = s; }\n";

static atomic_int total_ocl_runs, total_cpu_runs;
static atomic_long total_seen; /* rows * 1000 + cols (a vector: its n) */
static void *_Atomic total_cpu_ptr;

static void total_record(void *b, int matrix)
{
	atomic_store(&total_seen, matrix ? (long)(PPH_MATRIX_ROWS(b) * 1000 + PPH_MATRIX_COLS(b)) :
					   (long)PPH_VECTOR_N(b));
}

static void total_ocl(void *b[], void *arg)
{
	int matrix = *(const int *)arg;
	cl_kernel k = pph_opencl_kernel_source(total_src, "total");
	cl_mem x = PPH_OPENCL_MEM(b[0]), r = PPH_OPENCL_MEM(b[1]);
	int n = (int)(matrix ? PPH_MATRIX_ROWS(b[0]) * PPH_MATRIX_COLS(b[0]) : PPH_VECTOR_N(b[0]));
	size_t one = 1;

	if (!k) {
		pph_variant_failed();
		return;
	}
	total_record(b[0], matrix);
	clSetKernelArg(k, 0, sizeof(x), &x);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(r), &r);
	if (clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, &one, 0, NULL, NULL) ==
	    CL_SUCCESS)
		atomic_fetch_add(&total_ocl_runs, 1);
}

static void total_cpu(void *b[], void *arg)
{
	int matrix = *(const int *)arg;
	const float *x = matrix ? PPH_MATRIX_PTR(b[0]) : PPH_VECTOR_PTR(b[0]);
	size_t rows = matrix ? PPH_MATRIX_ROWS(b[0]) : 1;
	size_t cols = matrix ? PPH_MATRIX_COLS(b[0]) : PPH_VECTOR_N(b[0]);
	size_t ld = matrix ? PPH_MATRIX_LD(b[0]) : cols, i, j;
	float s = 0;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			s += x[i * ld + j];
	*(float *)PPH_VARIABLE_PTR(b[1]) = s;
	total_record(b[0], matrix);
	atomic_store(&total_cpu_ptr, (void *)x);
	atomic_fetch_add(&total_cpu_runs, 1);
}

static const struct pph_impl total_impls[] = {
	{ PPH_ARCH_OPENCL, total_ocl, "total_ocl", 0 },
	{ PPH_ARCH_CPU, total_cpu, "total_cpu", 0 },
};
static const struct pph_codelet total_ocl_cl = { "sp_total_ocl", 1, total_impls,
						 PPH_MODEL_HISTORY };
static const struct pph_codelet total_cl = { "sp_total", 2, total_impls, PPH_MODEL_HISTORY };

/* The total of x (read and written: its copy home is empty too) into a
 * scalar at 42 before; split: through pph_call_partitioned. */
static float total_of(const struct pph_codelet *cl, unsigned mask, pph_data_handle x, int matrix,
		      int split)
{
	float r = 42;
	pph_data_handle h[2] = { x, NULL };
	enum pph_access modes[2] = { PPH_RW, PPH_W };
	int parts[2] = { 0, -1 }, rc;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h[1], &r, sizeof(r)), 0);
	rc = split ? pph_call_partitioned(cl, mask, 2, h, modes, parts, &matrix, sizeof(matrix)) :
		     pph_call_sync(cl, mask, 2, h, modes, &matrix, sizeof(matrix));
	CU_ASSERT_EQUAL(rc, 0);
	pph_data_unregister(h[1]);
	return r;
}

/* Every way to run a total of x (seen as seen by the variant), each
 * giving 0. */
static void totals_of_nothing(pph_data_handle x, int matrix, long seen, const float *mem)
{
	int ocl = atomic_load(&total_ocl_runs), cpu = atomic_load(&total_cpu_runs), i, split;

	for (split = 0; split < 2; split++) {
		atomic_store(&total_seen, -1);
		CU_ASSERT_EQUAL(total_of(&total_ocl_cl, PPH_ALL_IMPLS, x, matrix, split), 0);
		CU_ASSERT_EQUAL(atomic_load(&total_seen), seen);
		CU_ASSERT_EQUAL(atomic_load(&total_ocl_runs), ++ocl);
		atomic_store(&total_seen, -1);
		CU_ASSERT_EQUAL(total_of(&total_cl, 1u << 0, x, matrix, split), 0);
		CU_ASSERT_EQUAL(atomic_load(&total_seen), seen);
		CU_ASSERT_EQUAL(atomic_load(&total_ocl_runs), ++ocl);
		atomic_store(&total_seen, -1);
		atomic_store(&total_cpu_ptr, NULL);
		CU_ASSERT_EQUAL(total_of(&total_cl, 1u << 1, x, matrix, split), 0);
		CU_ASSERT_EQUAL(atomic_load(&total_seen), seen);
		CU_ASSERT_EQUAL(atomic_load(&total_cpu_runs), ++cpu);
		/* the CPU variant gets the caller's pointer, as on libpeppher */
		CU_ASSERT_PTR_EQUAL(atomic_load(&total_cpu_ptr), mem);
	}
	for (i = 0; i < 4; i++) /* wherever StarPU places it */
		CU_ASSERT_EQUAL(total_of(&total_cl, PPH_ALL_IMPLS, x, matrix, i & 1), 0);
}

static void test_empty_data(void)
{
	static float mem[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	pph_data_handle x, blocks[2];
	int i, ok = 1;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&x, mem, 0, sizeof(float)), 0);
	totals_of_nothing(x, 0, 0, mem);
	CU_ASSERT_EQUAL(pph_data_partition(x, 2, blocks), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_acquire(x, PPH_RW), 0);
	pph_data_unregister(x);
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&x, mem, 0, 3, 4, sizeof(float)), 0);
	totals_of_nothing(x, 1, 3, mem);
	pph_data_unregister(x);
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&x, mem, 4, 0, 2, sizeof(float)), 0);
	totals_of_nothing(x, 1, 4000, mem);
	CU_ASSERT_EQUAL(pph_data_partition(x, 2, blocks), -EINVAL);
	pph_data_unregister(x);
	for (i = 0; i < 8; i++)
		ok &= mem[i] == i + 1;
	CU_ASSERT_TRUE(ok);
}

/*
 * Vectors that every call writes on the device, many in flight: each is
 * copied home once, when the host reads it.  StarPU's memory manager wrote
 * dirty copies home after every task once 20 buffers or more were on the
 * device (STARPU_MINIMUM_CLEAN_BUFFERS, which libpeppher-starpu sets to 0
 * unless given): 24 vectors x 10 calls were 240 copies home.
 */
static const char *const inc_src =
	"__kernel void inc(__global int *v, int n) { for (int i = 0; i < n; i++) v[i]++; }\n";

static void inc_ocl(void *b[], void *arg)
{
	cl_kernel k = pph_opencl_kernel_source(inc_src, "inc");
	cl_mem v = PPH_OPENCL_MEM(b[0]);
	int n = (int)PPH_VECTOR_N(b[0]);
	size_t one = 1;

	(void)arg;
	if (!k) {
		pph_variant_failed();
		return;
	}
	clSetKernelArg(k, 0, sizeof(v), &v);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, &one, 0, NULL, NULL);
}

static const struct pph_impl inc_impls[] = { { PPH_ARCH_OPENCL, inc_ocl, "inc_ocl", 0 } };
static const struct pph_codelet inc_cl = { "sp_inc", 1, inc_impls, PPH_MODEL_HISTORY };

static void test_copies_home(void)
{
	enum { K = 24, M = 4, ROUNDS = 10 };
	static int v[K][M];
	pph_data_handle h[K];
	enum pph_access rw = PPH_RW;
	struct pph_transfer_stats st;
	int k, i, r, ok = 1;

	for (k = 0; k < K; k++)
		CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h[k], v[k], M, sizeof(int)), 0);
	pph_task_wait_all();
	pph_transfer_stats_reset();
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < K; k++)
			CU_ASSERT_EQUAL(pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h[k], &rw, NULL, 0),
					0);
	for (k = 0; k < K; k++) {
		CU_ASSERT_EQUAL(pph_data_acquire(h[k], PPH_R), 0);
		for (i = 0; i < M; i++)
			ok &= v[k][i] == ROUNDS;
	}
	pph_transfer_stats_get(&st);
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(st.to_device, K);
	CU_ASSERT_EQUAL(st.to_host, K);
	if (st.to_host != K)
		fprintf(stderr, "%lu copies to the device, %lu home (%d expected each)\n",
			st.to_device, st.to_host, K);
	for (k = 0; k < K; k++)
		pph_data_unregister(h[k]);
}

/*
 * Asynchronous split calls (StarPU's asynchronous partitioning) across the
 * CPU and the device, each followed by a whole call on the device, none
 * waited for: the blocks see what the device's call left, and it what
 * their gather left.
 */
static const struct pph_impl split_inc_impls[] = {
	{ PPH_ARCH_OPENCL, inc_ocl, "split_inc_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "split_inc_cpu", 0 },
};
static const struct pph_codelet split_inc_cl = { "sp_split_inc", 2, split_inc_impls,
						 PPH_MODEL_HISTORY };

static void test_async_split(void)
{
	enum { ROUNDS = 6 };
	static int v[N];
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	int i, r, ok = 1, parts = 4, one = 1;

	for (i = 0; i < N; i++)
		v[i] = i;
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, v, N, sizeof(int)), 0);
	for (r = 0; r < ROUNDS; r++) {
		CU_ASSERT_EQUAL(pph_call_partitioned_async(&split_inc_cl, PPH_ALL_IMPLS, 1, &h, &rw,
							   &parts, &one, sizeof(one)),
				0);
		CU_ASSERT_EQUAL(pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	}
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < N; i++)
		ok &= v[i] == i + 2 * ROUNDS;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
}

/* A container freeing its own memory does not copy home what the device
 * wrote there last (starpu_data_unregister did: a CG's temporaries were
 * each copied home at their destroy only to be freed); a wrapped array
 * comes home, up to date. */
static void test_destroy_own_memory(void)
{
	enum { M = 1000 };
	static int wrapped[M];
	pph_vector *own = pph_vector_create(M, sizeof(int));
	pph_vector *wrap = pph_vector_wrap(wrapped, M, sizeof(int));
	enum pph_access rw = PPH_RW;
	struct pph_transfer_stats st;
	pph_data_handle h;
	int i, ok = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(own);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wrap);
	pph_task_wait_all();
	pph_transfer_stats_reset();
	h = pph_container_use(&own->c, PPH_RW);
	CU_ASSERT_EQUAL(pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	h = pph_container_use(&wrap->c, PPH_RW);
	CU_ASSERT_EQUAL(pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	pph_vector_destroy(own); /* waits for its task: nothing comes home */
	pph_transfer_stats_get(&st);
	CU_ASSERT_EQUAL(st.to_host, 0);
	pph_vector_destroy(wrap);
	pph_transfer_stats_get(&st);
	CU_ASSERT_EQUAL(st.to_device, 2);
	CU_ASSERT_EQUAL(st.to_host, 1);
	CU_ASSERT_EQUAL(st.bytes_to_host, M * sizeof(int));
	for (i = 0; i < M; i++)
		ok &= wrapped[i] == 1;
	CU_ASSERT_TRUE(ok);
}

/* A result left on the device at pph_shutdown comes home (it was lost:
 * StarPU stopped with the only valid copy on the device, and the host
 * memory, registered still or unregistered after, held the old values).
 * A handle registered in a stopped runtime is no concern of the next. */
static void seven_ocl(void *b[], void *arg)
{
	cl_kernel k = pph_opencl_kernel_source(
		"__kernel void seven(__global int *v) { v[get_global_id(0)] = 7; }", "seven");
	cl_mem m = (cl_mem)PPH_VECTOR_PTR(b[0]);
	size_t n = PPH_VECTOR_N(b[0]);

	(void)arg;
	if (!k || clSetKernelArg(k, 0, sizeof(m), &m) != CL_SUCCESS ||
	    clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &n, NULL, 0, NULL, NULL) !=
		    CL_SUCCESS)
		pph_variant_failed();
}

static const struct pph_impl seven_impls[] = { { PPH_ARCH_OPENCL, seven_ocl, "seven_ocl", 0 } };
static const struct pph_codelet seven_cl = { "sp_seven", 1, seven_impls, PPH_MODEL_HISTORY };

static void test_home_at_shutdown(void)
{
	static int kept[1000], dropped[500];
	pph_data_handle hk, hd;
	enum pph_access w = PPH_W;
	int i, ok = 1;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hk, kept, 1000, sizeof(int)), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&hd, dropped, 500, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_async(&seven_cl, PPH_ALL_IMPLS, 1, &hk, &w, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_call_async(&seven_cl, PPH_ALL_IMPLS, 1, &hd, &w, NULL, 0), 0);
	pph_shutdown();
	for (i = 0; i < 1000; i++)
		ok &= kept[i] == 7;
	CU_ASSERT_TRUE(ok); /* registered still: host memory is the data */
	pph_data_unregister(hd);
	for (i = 0; i < 500; i++)
		ok &= dropped[i] == 7;
	CU_ASSERT_TRUE(ok);
	/* the next runtime's shutdown does not touch the old handle */
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_shutdown();
	pph_data_unregister(hk);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

int main(void)
{
	CU_pSuite s;
	unsigned failed;

	setenv("PEPPHER_NCPU", "2", 1);
	setenv("STARPU_LIMIT_OPENCL_MEM", "1", 1);
	if (pph_init() != 0)
		return 1;
	if (pph_worker_count_arch(PPH_ARCH_OPENCL) == 0) {
		pph_shutdown();
		printf("no OpenCL device: skipped\n");
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("libpeppher-starpu on an OpenCL device", NULL, NULL);
	CU_add_test(s, "a split call whose device kernel fails is whole", test_split_call);
	CU_add_test(s, "asynchronous calls whose device kernel fails are done", test_async_calls);
	CU_add_test(s, "calls waiting on one whose only variant fails fail too",
		    test_chained_calls);
	CU_add_test(s, "reductions on the device, and with a failing kernel", test_reductions);
	CU_add_test(s, "data beyond STARPU_LIMIT_OPENCL_MEM", test_beyond_device_limit);
	CU_add_test(s, "kernels that fail are said naming the variant", test_kernel_messages);
	CU_add_test(s, "results on the device come home at pph_shutdown", test_home_at_shutdown);
	CU_add_test(s, "empty vectors and matrices on the device", test_empty_data);
	CU_add_test(s, "data written on the device is copied home once", test_copies_home);
	CU_add_test(s, "asynchronous split calls and device calls in turn", test_async_split);
	CU_add_test(s, "a container's own memory is freed without a copy home",
		    test_destroy_own_memory);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	pph_shutdown();
	return failed ? 1 : 0;
}
