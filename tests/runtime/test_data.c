/*
 * Data layer tests on a real separate device memory (PoCL's OpenCL CPU
 * device): exact transfer counts and bytes for the coherence scenarios, and
 * a random mix of CPU and OpenCL tasks equal to a sequential run.  Skipped
 * (77) without an OpenCL device.
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/opencl.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "internal.h"
#include "perfmodel.h"

#include "testutil.h"

static const char *const kernels_src =
	"__kernel void fill(__global int *v, uint n, int x)\n"
	"{ size_t i = get_global_id(0); if (i < n) v[i] = x + (int)i; }\n"
	"__kernel void add(__global int *v, uint n, int x)\n"
	"{ size_t i = get_global_id(0); if (i < n) v[i] += x; }\n"
	"__kernel void sum(__global const int *v, uint n, __global int *out)\n"
	"{ if (get_global_id(0) == 0) { int s = 0; for (uint i = 0; i < n; i++) s += v[i]; out[0] = s; } }\n"
	"__kernel void copy(__global int *dst, uint n, __global const int *src)\n"
	"{ size_t i = get_global_id(0); if (i < n) dst[i] = src[i]; }\n";

static void run_kernel_n(const char *name, void *buffers[], cl_uint n, int x,
			 int with_out)
{
	cl_kernel k = pph_opencl_kernel_source(kernels_src, name);
	cl_mem m = PPH_OPENCL_MEM(buffers[0]);
	size_t global = n ? n : 1;

	if (!k)
		return;
	clSetKernelArg(k, 0, sizeof(m), &m);
	clSetKernelArg(k, 1, sizeof(n), &n);
	if (with_out) {
		cl_mem out = PPH_OPENCL_MEM(buffers[1]);

		clSetKernelArg(k, 2, sizeof(out), &out);
	} else {
		clSetKernelArg(k, 2, sizeof(x), &x);
	}
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}

static void run_kernel(const char *name, void *buffers[], int x, int with_out)
{
	run_kernel_n(name, buffers, (cl_uint)PPH_VECTOR_N(buffers[0]), x, with_out);
}

/* a matrix is packed on the device: rows * cols elements */
static void add_matrix_ocl(void *b[], void *arg)
{
	run_kernel_n("add", b, (cl_uint)(PPH_MATRIX_ROWS(b[0]) * PPH_MATRIX_COLS(b[0])),
		     *(int *)arg, 0);
}

static void fill_ocl(void *b[], void *arg) { run_kernel("fill", b, *(int *)arg, 0); }
static void add_ocl(void *b[], void *arg) { run_kernel("add", b, *(int *)arg, 0); }
static void sum_ocl(void *b[], void *arg) { (void)arg; run_kernel("sum", b, 0, 1); }

static void fill_cpu(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);
	size_t i;

	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		v[i] = *(int *)arg + (int)i;
}

static void add_cpu(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);
	size_t i;

	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		v[i] += *(int *)arg;
}

static void sum_cpu(void *b[], void *arg)
{
	const int *v = PPH_VECTOR_PTR(b[0]);
	int *out = PPH_VECTOR_PTR(b[1]), s = 0;
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		s += v[i];
	out[0] = s;
}

/* variant 0 runs on CPU workers, variant 1 on OpenCL workers */
static const struct pph_impl fill_impls[] = { { PPH_ARCH_CPU, fill_cpu, "fill_cpu", 0 },
					      { PPH_ARCH_OPENCL, fill_ocl, "fill_ocl", 0 } };
static const struct pph_codelet fill_cl = { "data_fill", 2, fill_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl add_impls[] = { { PPH_ARCH_CPU, add_cpu, "add_cpu", 0 },
					     { PPH_ARCH_OPENCL, add_ocl, "add_ocl", 0 } };
static const struct pph_codelet add_cl = { "data_add", 2, add_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl sum_impls[] = { { PPH_ARCH_CPU, sum_cpu, "sum_cpu", 0 },
					     { PPH_ARCH_OPENCL, sum_ocl, "sum_ocl", 0 } };
static const struct pph_codelet sum_cl = { "data_sum", 2, sum_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl add_matrix_impls[] = {
	{ PPH_ARCH_OPENCL, add_matrix_ocl, "add_matrix_ocl", 0 } };
static const struct pph_codelet add_matrix_cl = { "data_add_matrix", 1, add_matrix_impls, PPH_MODEL_DEFAULT };

/* the host's block keeps its parent's leading dimension */
static void add_matrix_cpu(void *b[], void *arg)
{
	int *m = PPH_MATRIX_PTR(b[0]);
	size_t i, j, ld = PPH_MATRIX_LD(b[0]);

	for (i = 0; i < PPH_MATRIX_ROWS(b[0]); i++)
		for (j = 0; j < PPH_MATRIX_COLS(b[0]); j++)
			m[i * ld + j] += *(int *)arg;
}

static const struct pph_impl add_matrix2_impls[] = {
	{ PPH_ARCH_CPU, add_matrix_cpu, "add_matrix_cpu", 0 },
	{ PPH_ARCH_OPENCL, add_matrix_ocl, "add_matrix_ocl", 0 } };
static const struct pph_codelet add_matrix2_cl = { "data_add_matrix2", 2, add_matrix2_impls,
						   PPH_MODEL_DEFAULT };

enum { CPU = 0, GPU = 1 };
#define N 1000
#define BYTES (N * sizeof(int))
/* A copy in and home of bytes to node, as estimated now: copies home
 * teach the link's slowdown and latency (pph__transfer_observed). */
#define IN pph__transfer_time(node, 0, bytes)
#define HOME pph__transfer_time(node, 1, bytes)

/* Submit cl on a's variant with (h, mode) [+ (out, PPH_W)], value x. */
static void call(const struct pph_codelet *cl, int variant, pph_data_handle h,
		 enum pph_access mode, pph_data_handle out, int x)
{
	struct pph_task *t = pph_task_create(cl);

	pph_task_add_buffer(t, h, mode);
	if (out)
		pph_task_add_buffer(t, out, PPH_W);
	pph_task_set_arg(t, &x, sizeof(x));
	pph_task_force_impl(t, variant);
	pph_task_set_detached(t, 1);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
}

static void call_sync(const struct pph_codelet *cl, int variant, pph_data_handle h,
		      enum pph_access mode, pph_data_handle out, int x)
{
	pph_data_handle hs[2] = { h, out };
	enum pph_access modes[2] = { mode, PPH_W };

	CU_ASSERT_EQUAL(pph_call_sync(cl, 1u << variant, out ? 2 : 1, hs, modes, &x, sizeof(x)),
			0);
}

/* The paper's Fig. 3: 2 transfers, not 7. */
static void test_fig3(void)
{
	int v[N], s1 = 0, s2 = 0, i, ok = 1;
	pph_data_handle h, o1, o2;

	pph_vector_register(&h, v, N, sizeof(int));
	pph_vector_register(&o1, &s1, 1, sizeof(int));
	pph_vector_register(&o2, &s2, 1, sizeof(int));
	pph_transfer_stats_reset();
	call(&fill_cl, GPU, h, PPH_W, NULL, 5);		/* write on the device */
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);	/* host read */
	for (i = 0; i < N; i++)
		ok &= v[i] == 5 + i;
	CU_ASSERT_TRUE(ok);
	call(&add_cl, GPU, h, PPH_RW, NULL, 1);		/* readwrite on the device */
	call(&sum_cl, GPU, h, PPH_R, o1, 0);		/* two reads on the device */
	call(&sum_cl, GPU, h, PPH_R, o2, 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_RW), 0);	/* host write */
	v[0] = -1;
	expect_transfers(0, 0, 2, 2 * BYTES, __LINE__);
	for (ok = 1, i = 1; i < N; i++)
		ok &= v[i] == 6 + i;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	expect_transfers(0, 0, 2, 2 * BYTES, __LINE__); /* the host copy was valid */
	pph_data_unregister(o1);
	pph_data_unregister(o2);
	CU_ASSERT_EQUAL(s1, N * 6 + N * (N - 1) / 2);
	CU_ASSERT_EQUAL(s1, s2);
	expect_transfers(0, 0, 4, 2 * BYTES + 2 * sizeof(int), __LINE__);
}

static void test_read_twice_on_device(void)
{
	int v[N] = { 0 }, s = 0;
	pph_data_handle h, o;

	pph_vector_register(&h, v, N, sizeof(int));
	pph_vector_register(&o, &s, 1, sizeof(int));
	pph_transfer_stats_reset();
	call(&sum_cl, GPU, h, PPH_R, o, 0);
	call(&sum_cl, GPU, h, PPH_R, o, 0);
	pph_task_wait_all();
	expect_transfers(1, BYTES, 0, 0, __LINE__);
	pph_data_unregister(h); /* host still valid: nothing to copy back */
	pph_data_unregister(o);
	expect_transfers(1, BYTES, 1, sizeof(int), __LINE__);
}

static void test_cpu_after_device_write(void)
{
	int v[N], i, ok = 1;
	pph_data_handle h;

	pph_vector_register(&h, v, N, sizeof(int));
	pph_transfer_stats_reset();
	call(&fill_cl, GPU, h, PPH_W, NULL, 3);	/* no transfer in: mode W */
	call(&add_cl, CPU, h, PPH_RW, NULL, 10);	/* one transfer back */
	pph_task_wait_all();
	expect_transfers(0, 0, 1, BYTES, __LINE__);
	pph_data_unregister(h);
	expect_transfers(0, 0, 1, BYTES, __LINE__);
	for (i = 0; i < N; i++)
		ok &= v[i] == 13 + i;
	CU_ASSERT_TRUE(ok);
}

static void test_unregister_after_device_write(void)
{
	int v[N], i, ok = 1;
	pph_data_handle h;

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	pph_transfer_stats_reset();
	call(&add_cl, GPU, h, PPH_RW, NULL, 7);
	call(&add_cl, GPU, h, PPH_RW, NULL, 1);
	pph_data_unregister(h);
	expect_transfers(1, BYTES, 1, BYTES, __LINE__);
	for (i = 0; i < N; i++)
		ok &= v[i] == i + 8;
	CU_ASSERT_TRUE(ok);
}

static void test_host_write_invalidates(void)
{
	int v[N], s = 0, i;
	pph_data_handle h, o;

	for (i = 0; i < N; i++)
		v[i] = 1;
	pph_vector_register(&h, v, N, sizeof(int));
	pph_vector_register(&o, &s, 1, sizeof(int));
	pph_transfer_stats_reset();
	call(&sum_cl, GPU, h, PPH_R, o, 0);		/* 1 to device */
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_W), 0); /* overwrite: no copy */
	for (i = 0; i < N; i++)
		v[i] = 2;
	call(&sum_cl, GPU, h, PPH_R, o, 0);		/* stale on device: 1 more */
	CU_ASSERT_EQUAL(pph_data_acquire(o, PPH_R), 0);	/* 1 back */
	CU_ASSERT_EQUAL(s, 2 * N);
	expect_transfers(2, 2 * BYTES, 1, sizeof(int), __LINE__);
	pph_data_unregister(h);
	pph_data_unregister(o);
	expect_transfers(2, 2 * BYTES, 1, sizeof(int), __LINE__);
}

static void test_matrix_block_on_device(void)
{
	int m[6][8], i, j, ok = 1;
	pph_data_handle h;

	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++)
			m[i][j] = 100 * i + j;
	/* the 3 x 4 block at (2, 3), rows 8 elements apart on the host */
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&h, &m[2][3], 3, 4, 8, sizeof(int)), 0);
	pph_transfer_stats_reset();
	{
		struct pph_task *t = pph_task_create(&add_matrix_cl);
		int x = 1000;

		pph_task_add_buffer(t, h, PPH_RW);
		pph_task_set_arg(t, &x, sizeof(x));
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		pph_task_wait(t);
		pph_task_destroy(t);
	}
	pph_data_unregister(h);
	expect_transfers(1, 12 * sizeof(int), 1, 12 * sizeof(int), __LINE__);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++) {
			int in = i >= 2 && i < 5 && j >= 3 && j < 7;

			ok &= m[i][j] == 100 * i + j + (in ? 1000 : 0);
		}
	CU_ASSERT_TRUE(ok);
}

/* A vector in 4 blocks written on different nodes, then gathered: only
 * the blocks written on the device come back, once each. */
static void test_vector_blocks(void)
{
	int v[N], i, ok = 1;
	pph_data_handle h, b[4];

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	CU_ASSERT_EQUAL_FATAL(pph_data_partition(h, 4, b), 0);
	pph_transfer_stats_reset();
	call(&fill_cl, GPU, b[0], PPH_W, NULL, 1000);	/* written on the device */
	call(&add_cl, GPU, b[1], PPH_RW, NULL, 1);	/* read and written there */
	call(&add_cl, CPU, b[2], PPH_RW, NULL, 2);	/* on the host */
	pph_data_unpartition(h, 4, b);			/* b[3] untouched */
	expect_transfers(1, BYTES / 4, 2, 2 * (BYTES / 4), __LINE__);
	for (i = 0; i < N; i++)
		ok &= v[i] == (i < N / 4 ? 1000 + i : i < N / 2 ? i + 1 : i < 3 * N / 4 ? i + 2 : i);
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	expect_transfers(1, BYTES / 4, 2, 2 * (BYTES / 4), __LINE__); /* the host copy was valid */
}

/* dmda starts a queued task's copies at once; the worker then finds its
 * data on the device: still one transfer each. */
static void test_prefetch(void)
{
	int v1[N], v2[N], i, ok = 1;
	pph_data_handle h1, h2;
	struct pph_transfer_stats s;

	for (i = 0; i < N; i++)
		v1[i] = v2[i] = i;
	pph_vector_register(&h1, v1, N, sizeof(int));
	pph_vector_register(&h2, v2, N, sizeof(int));
	pph_transfer_stats_reset();
	call(&add_cl, GPU, h1, PPH_RW, NULL, 1);
	call(&add_cl, GPU, h2, PPH_RW, NULL, 2);
	pph_task_wait_all();
	pph_transfer_stats_get(&s);
	CU_ASSERT_EQUAL(s.prefetches, 2);
	expect_transfers(2, 2 * BYTES, 0, 0, __LINE__);
	pph_data_unregister(h1);
	pph_data_unregister(h2);
	for (i = 0; i < N; i++)
		ok &= v1[i] == i + 1 && v2[i] == i + 2;
	CU_ASSERT_TRUE(ok);
}

/* Column blocks of a matrix: block 1 of 2 is changed on the device, block 0
 * on a CPU worker; unpartition gathers both, each block moved once. */
static void test_matrix_columns(void)
{
	int m[6][8], i, j, ok = 1, x = 1000;
	pph_data_handle h, cols[2];
	struct pph_task *t;

	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++)
			m[i][j] = 100 * i + j;
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&h, m, 6, 8, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_data_partition_columns(h, 2, cols), 0);
	pph_transfer_stats_reset();
	t = pph_task_create(&add_matrix_cl);
	pph_task_add_buffer(t, cols[1], PPH_RW);
	pph_task_set_arg(t, &x, sizeof(x));
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	pph_task_wait(t);
	pph_task_destroy(t);
	CU_ASSERT_EQUAL(pph_data_acquire(cols[0], PPH_RW), 0); /* the host's block */
	for (i = 0; i < 6; i++)
		m[i][0] = -i;
	pph_data_unpartition(h, 2, cols);
	expect_transfers(1, 24 * sizeof(int), 1, 24 * sizeof(int), __LINE__);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++)
			ok &= m[i][j] == (j == 0 ? -i : 100 * i + j + (j >= 4 ? 1000 : 0));
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	pph_vector_register(&h, &m[0][0], 8, sizeof(int)); /* not a matrix */
	CU_ASSERT_EQUAL(pph_data_partition_columns(h, 2, cols), -EINVAL);
	pph_data_unregister(h);
}

/* A 6 x 8 container in 4 x 3 tiles (a 2 x 3 grid: rows 4, 2; columns 3,
 * 3, 2) changed by tasks on both nodes: a chain on one tile, independent
 * tiles elsewhere.  Each tile moves on its own, only when needed. */
static void test_matrix_tile_views(void)
{
	pph_matrix *m = pph_matrix_create(6, 8, sizeof(int));
	pph_matrix_tiles *t;
	size_t i, j;
	int ok = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++)
			PPH_MATRIX_SET(m, int, i, j, (int)(100 * i + j));
	CU_ASSERT_PTR_NULL(pph_matrix_tile_grid(m, 0, 3));
	t = pph_matrix_tile_grid(m, 4, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NULL(pph_matrix_tile_grid(m, 4, 3)); /* tiled already */
	CU_ASSERT_EQUAL(errno, EBUSY);
	CU_ASSERT_PTR_NULL(pph_matrix_read(m)); /* the parent is not usable */
	CU_ASSERT_EQUAL(t->nrows, 2);
	CU_ASSERT_EQUAL(t->ncols, 3);
	CU_ASSERT_EQUAL(pph_matrix_tile(t, 1, 2)->rows, 2);
	CU_ASSERT_EQUAL(pph_matrix_tile(t, 1, 2)->cols, 2);
	CU_ASSERT_PTR_NULL(pph_matrix_tile(t, 2, 0));
	pph_transfer_stats_reset();
	/* tile (0, 0): device, then CPU, then device again: 12 ints each way */
	call(&add_matrix2_cl, GPU, pph_container_use(&pph_matrix_tile(t, 0, 0)->c, PPH_RW),
	     PPH_RW, NULL, 1);
	call(&add_matrix2_cl, CPU, pph_container_use(&pph_matrix_tile(t, 0, 0)->c, PPH_RW),
	     PPH_RW, NULL, 10);
	call(&add_matrix2_cl, GPU, pph_container_use(&pph_matrix_tile(t, 0, 0)->c, PPH_RW),
	     PPH_RW, NULL, 100);
	/* tile (1, 2), 2 x 2, on the device; tile (1, 0) on the host */
	call(&add_matrix2_cl, GPU, pph_container_use(&pph_matrix_tile(t, 1, 2)->c, PPH_RW),
	     PPH_RW, NULL, 1000);
	call(&add_matrix2_cl, CPU, pph_container_use(&pph_matrix_tile(t, 1, 0)->c, PPH_RW),
	     PPH_RW, NULL, 2000);
	/* a host read of one tile: only that tile comes home */
	CU_ASSERT_EQUAL(PPH_MATRIX_GET(pph_matrix_tile(t, 1, 2), int, 1, 1), 507 + 1000);
	pph_task_wait_all(); /* tile (0, 0)'s chain */
	expect_transfers(3, 28 * sizeof(int), 2, 16 * sizeof(int), __LINE__);
	pph_matrix_untile(t); /* tile (0, 0) comes home */
	expect_transfers(3, 28 * sizeof(int), 3, 28 * sizeof(int), __LINE__);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++) {
			int add = i < 4 && j < 3 ? 111 : i >= 4 && j >= 6 ? 1000 : i >= 4 && j < 3 ? 2000 : 0;

			ok &= PPH_MATRIX_GET(m, int, i, j) == (int)(100 * i + j) + add;
		}
	CU_ASSERT_TRUE(ok);
	pph_matrix_destroy(m);
	expect_transfers(3, 28 * sizeof(int), 3, 28 * sizeof(int), __LINE__);
}

/* A container freeing its own memory does not copy home what a device
 * wrote there last (a CG's temporaries, last written on the device, were
 * each copied home at their destroy only to be freed); a wrapped array
 * comes home, up to date. */
static void test_destroy_own_memory(void)
{
	static int wrapped[N];
	pph_vector *own = pph_vector_create(N, sizeof(int));
	pph_vector *wrap = pph_vector_wrap(wrapped, N, sizeof(int));
	pph_matrix *m = pph_matrix_create(6, 8, sizeof(int));
	int i, ok = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(own);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wrap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	PPH_MATRIX_SET(m, int, 0, 0, 1);
	pph_transfer_stats_reset();
	call(&fill_cl, GPU, pph_container_use(&own->c, PPH_W), PPH_W, NULL, 3);
	call(&fill_cl, GPU, pph_container_use(&wrap->c, PPH_W), PPH_W, NULL, 4);
	call(&add_matrix_cl, GPU, pph_container_use(&m->c, PPH_RW), PPH_RW, NULL, 5);
	pph_vector_destroy(own); /* waits for its task: nothing comes home */
	pph_matrix_destroy(m);
	expect_transfers(1, 48 * sizeof(int), 0, 0, __LINE__);
	pph_vector_destroy(wrap);
	expect_transfers(1, 48 * sizeof(int), 1, BYTES, __LINE__);
	for (i = 0; i < N; i++)
		ok &= wrapped[i] == 4 + i;
	CU_ASSERT_TRUE(ok);
}

/* Block lengths the last hybrid call gave each kind of worker. */
static atomic_size_t hybrid_cpu_max, hybrid_ocl_min, hybrid_cpu_min, hybrid_ocl_max;

/* Keep this thread busy for us microseconds: a variant of a known time. */
static void spin_us(double us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1e6 + (t.tv_nsec - t0.tv_nsec) / 1e3 < us);
}

static void note_len(atomic_size_t *lo, atomic_size_t *hi, size_t n)
{
	size_t seen = atomic_load(lo);

	while (n < seen && !atomic_compare_exchange_weak(lo, &seen, n))
		;
	seen = atomic_load(hi);
	while (n > seen && !atomic_compare_exchange_weak(hi, &seen, n))
		;
}

/* The CPU variant is slow (8 microseconds per element), the OpenCL one fast. */
static void slow_add_cpu(void *b[], void *arg)
{
	size_t n = PPH_VECTOR_N(b[0]);

	spin_us(8.0 * n);
	add_cpu(b, arg);
	note_len(&hybrid_cpu_min, &hybrid_cpu_max, n);
}

static void fast_add_ocl(void *b[], void *arg)
{
	add_ocl(b, arg);
	note_len(&hybrid_ocl_min, &hybrid_ocl_max, PPH_VECTOR_N(b[0]));
}

static const struct pph_impl hybrid_impls[] = { { PPH_ARCH_CPU, slow_add_cpu, "slow_add_cpu", 0 },
						{ PPH_ARCH_OPENCL, fast_add_ocl, "fast_add_ocl", 0 } };
static const struct pph_codelet hybrid_cl = { "data_hybrid_add", 2, hybrid_impls, PPH_MODEL_DEFAULT };

/* A partitioned call in 8 blocks on a CPU worker and an OpenCL device:
 * equal blocks until both kinds are calibrated, then blocks sized by the
 * models: every block of one kind longer than every block of the other
 * (which kind depends on PoCL's speed on this machine, as the models
 * measured it), or all 8 blocks on one kind, should it end the call
 * sooner alone; the result stays exact. */
static void test_hybrid_split(void)
{
	enum { LEN = 2048, CALLS = 16 };
	static int v[LEN];
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int parts = 8, x = 1, i, ok = 1;

	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	for (i = 0; i < CALLS; i++) {
		atomic_store(&hybrid_cpu_max, 0);
		atomic_store(&hybrid_ocl_max, 0);
		atomic_store(&hybrid_cpu_min, (size_t)-1);
		atomic_store(&hybrid_ocl_min, (size_t)-1);
		CU_ASSERT_EQUAL(pph_call_partitioned(&hybrid_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts,
						     &x, sizeof(x)), 0);
	}
	/* the last call: blocks sized, not equal (256 each): of lengths apart
	 * where both kinds ran some, else one kind had the whole call */
	fprintf(stderr, "hybrid: CPU blocks %zu-%zu, OpenCL blocks %zu-%zu elements\n",
		atomic_load(&hybrid_cpu_min), atomic_load(&hybrid_cpu_max),
		atomic_load(&hybrid_ocl_min), atomic_load(&hybrid_ocl_max));
	if (atomic_load(&hybrid_cpu_max) > 0 && atomic_load(&hybrid_ocl_max) > 0) {
		CU_ASSERT(atomic_load(&hybrid_cpu_max) < atomic_load(&hybrid_ocl_min) ||
			  atomic_load(&hybrid_ocl_max) < atomic_load(&hybrid_cpu_min));
	} else { /* the 8 blocks on one kind: the device (or the CPU, should
		  * PoCL's runs here have ended late: see split_seen) */
		CU_ASSERT((atomic_load(&hybrid_cpu_max) == 0) != (atomic_load(&hybrid_ocl_max) == 0));
	}
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == i + CALLS;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
}

/* A split call's blocks go out in a burst (pph__wakes_hold): the device's
 * block is copied by its worker, not by the call's thread, whose copy
 * held up the blocks after it.  A fresh codelet: its first call, still
 * calibrating, gives each kind its share of the blocks. */
static const struct pph_codelet burst_cl = { "data_burst_add", 2, hybrid_impls, PPH_MODEL_DEFAULT };

static void test_split_not_prefetched(void)
{
	enum { LEN = 2048 };
	static int v[LEN];
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int parts = 8, x = 5, i, ok = 1;
	struct pph_transfer_stats s;

	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	atomic_store(&hybrid_ocl_max, 0);
	pph_transfer_stats_reset();
	CU_ASSERT_EQUAL(pph_call_partitioned(&burst_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts, &x,
					     sizeof(x)),
			0);
	pph_transfer_stats_get(&s);
	CU_ASSERT(atomic_load(&hybrid_ocl_max) > 0); /* the device ran a block */
	CU_ASSERT(s.to_device > 0);
	CU_ASSERT_EQUAL(s.prefetches, 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == i + 5;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
}

/*
 * Asynchronous split calls across the CPU worker and the OpenCL device,
 * each followed by a whole call on the device, none waited for: every
 * split's scatter brings home the vector the device's call left there, its
 * device blocks go home at its gather, and the device's next call reads
 * what the gather left.
 */
static const struct pph_codelet async_hybrid_cl = { "data_async_hybrid_add", 2, hybrid_impls,
						    PPH_MODEL_DEFAULT };

static void test_async_split_coherent(void)
{
	enum { LEN = 2048, CALLS = 8 };
	static int v[LEN];
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int parts = 8, x = 1, i, ok = 1;

	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	atomic_store(&hybrid_ocl_max, 0);
	for (i = 0; i < CALLS; i++) {
		CU_ASSERT_EQUAL(pph_call_partitioned_async(&async_hybrid_cl, PPH_ALL_IMPLS, 1, &h,
							   &mode, &parts, &x, sizeof(x)),
				0);
		CU_ASSERT_EQUAL(pph_call_async(&async_hybrid_cl, 1u << 1, 1, &h, &mode, &x,
					       sizeof(x)),
				0);
	}
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == i + 2 * CALLS;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT(atomic_load(&hybrid_ocl_max) > 0); /* the device ran */
	pph_data_unregister(h);
}

/*
 * An asynchronous split that only writes its vector, the device's copy
 * the only valid one: the scatter does not bring it home (PPH_W), and the
 * host reads what the blocks wrote, nothing copied either way.
 */
static void set_cpu(void *b[], void *arg)
{
	int *v = PPH_VECTOR_PTR(b[0]);
	size_t i;

	for (i = 0; i < PPH_VECTOR_N(b[0]); i++)
		v[i] = *(int *)arg;
}

static const struct pph_impl set_impls[] = { { PPH_ARCH_CPU, set_cpu, "set_cpu", 0 } };
static const struct pph_codelet set_cl = { "data_split_set", 1, set_impls, PPH_MODEL_DEFAULT };

static void test_async_split_write_only(void)
{
	enum { LEN = 2048 };
	static int v[LEN];
	pph_data_handle h;
	enum pph_access rw = PPH_RW, w = PPH_W;
	int parts = 4, x = 1, seven = 7, i, ok = 1;
	struct pph_transfer_stats st;

	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	CU_ASSERT_EQUAL(pph_call_sync(&hybrid_cl, 1u << 1, 1, &h, &rw, &x, sizeof(x)), 0);
	pph_transfer_stats_reset();
	CU_ASSERT_EQUAL(pph_call_partitioned_async(&set_cl, PPH_ALL_IMPLS, 1, &h, &w, &parts,
						   &seven, sizeof(seven)),
			0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	pph_transfer_stats_get(&st);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == 7;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(st.to_host, 0);
	CU_ASSERT_EQUAL(st.to_device, 0);
	pph_data_unregister(h);
}

/* A call partitioned `auto` with no device variant: one block per CPU
 * worker, not one per worker (the OpenCL worker's block went to a CPU
 * worker too, which then ran two). */
static atomic_int cpu_only_blocks;

static void counted_add_cpu(void *b[], void *arg)
{
	add_cpu(b, arg);
	atomic_fetch_add(&cpu_only_blocks, 1);
}

static const struct pph_impl cpu_only_impls[] = { { PPH_ARCH_CPU, counted_add_cpu, "counted_add_cpu", 0 } };
static const struct pph_codelet cpu_only_cl = { "data_cpu_only_add", 1, cpu_only_impls,
						PPH_MODEL_DEFAULT };

static void test_auto_blocks_for_able_workers(void)
{
	enum { LEN = 1000 };
	static int v[LEN];
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int parts = 0, x = 3, i, ok = 1;

	CU_ASSERT_TRUE_FATAL(pph__rt.nworkers > pph__rt.arch_workers[PPH_ARCH_CPU]);
	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	atomic_store(&cpu_only_blocks, 0);
	CU_ASSERT_EQUAL(pph_call_partitioned(&cpu_only_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts, &x,
					     sizeof(x)),
			0);
	CU_ASSERT_EQUAL(atomic_load(&cpu_only_blocks), (int)pph__rt.arch_workers[PPH_ARCH_CPU]);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == i + 3;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
}

/* The OpenCL device's memory node: 1 here, 2 on a machine whose CUDA
 * device took node 1 first. */
static unsigned opencl_node(void)
{
	unsigned n;

	for (n = 1; n < pph__rt.nnodes; n++)
		if (pph__rt.nodes[n].arch == PPH_ARCH_OPENCL)
			return n;
	CU_FAIL_FATAL("no OpenCL memory node");
	return 0;
}

/* The same call, one block per worker (partition="auto"), where copies to
 * and from the device take lat_us each (this process's model only; 0:
 * the link as measured); returns the elements the device's block had, 0
 * when it got none. */
static size_t hybrid_call_slow_link(double lat_us)
{
	enum { LEN = 2048 };
	static int v[LEN];
	const double slow_lat[2] = { lat_us, lat_us };
	double lat[2], bw[2];
	const unsigned node = opencl_node();
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	int parts = 0, x = 1, i, ok = 1;

	pph__transfer_model_get(node, lat, bw);
	if (lat_us > 0)
		pph__transfer_model_set(node, slow_lat, bw, 0);
	for (i = 0; i < LEN; i++)
		v[i] = i;
	pph_vector_register(&h, v, LEN, sizeof(int));
	atomic_store(&hybrid_cpu_max, 0);
	atomic_store(&hybrid_ocl_max, 0);
	atomic_store(&hybrid_cpu_min, (size_t)-1);
	atomic_store(&hybrid_ocl_min, (size_t)-1);
	CU_ASSERT_EQUAL(pph_call_partitioned(&hybrid_cl, PPH_ALL_IMPLS, 1, &h, &mode, &parts, &x,
					     sizeof(x)), 0);
	pph__transfer_model_set(node, lat, bw, 1);
	fprintf(stderr, "hybrid, copies of %.0f us: CPU blocks %zu-%zu, OpenCL blocks %zu-%zu elements\n",
		lat_us, atomic_load(&hybrid_cpu_min), atomic_load(&hybrid_cpu_max),
		atomic_load(&hybrid_ocl_min), atomic_load(&hybrid_ocl_max));
	pph_data_unregister(h);
	for (i = 0; i < LEN; i++)
		ok &= v[i] == i + 1;
	CU_ASSERT_TRUE(ok);
	/* one block for the CPU worker, and at most one for the device */
	CU_ASSERT_EQUAL(pph__rt.arch_workers[PPH_ARCH_CPU], 1);
	CU_ASSERT_EQUAL(atomic_load(&hybrid_cpu_max) + atomic_load(&hybrid_ocl_max), LEN);
	return atomic_load(&hybrid_ocl_max);
}

/* What the calls so far measured of lateness and of a block's submission
 * is forgotten: under make -j2 check the CPU worker's blocks ended late
 * enough that the device, its copies 10 ms each, got a block. */
static void forget_lateness(void)
{
	pph__split_set_late(&hybrid_cl, PPH_ARCH_OPENCL, 0);
	pph__split_set_late(&hybrid_cl, PPH_ARCH_CPU, 0);
	pph__split_set_submit_us(0);
}

/* The device's copies count in its block (one CPU worker, 8 us an
 * element: 16 ms for the whole call).  At 6 ms a copy, a block costs the
 * device 12 ms more whatever its length: it gets fewer rows than with the
 * link as measured, or none.  At 300 ms a copy, the CPU worker ends the
 * call before any block of the device's could: it gets none.  Compared,
 * not to fixed lengths: under make -j2 check the CPU worker's 8 us spins
 * were preempted, its model said 2 times slower, and at 6 ms the device
 * got 1,088 elements; at 30 ms under a load of 9 on 2 cores, 416.  Each
 * call forgets how late blocks were before. */
static void test_hybrid_split_slow_link(void)
{
	size_t measured_link, slow_link;
	int i;

	for (i = 0; i < 6; i++) /* both kinds calibrated at the blocks' shape */
		hybrid_call_slow_link(0);
	forget_lateness();
	measured_link = hybrid_call_slow_link(0);
	forget_lateness();
	slow_link = hybrid_call_slow_link(6000);
	CU_ASSERT(slow_link == 0 || slow_link < measured_link);
	forget_lateness();
	CU_ASSERT_EQUAL(hybrid_call_slow_link(300000), 0);
}

/* A kind whose blocks ended late gets fewer rows: 600 ms late, the device
 * cannot end before the CPU worker alone (16 ms, or some times that where
 * a loaded machine slowed its calibration: 60 ms late was not enough at a
 * load of 9), and given no block its lateness fades by a quarter.  What a split call measures is kept:
 * finite, never negative. */
static void test_hybrid_split_late(void)
{
	double late;

	forget_lateness();
	pph__split_set_late(&hybrid_cl, PPH_ARCH_OPENCL, 600000);
	CU_ASSERT_EQUAL(hybrid_call_slow_link(0), 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__split_late_us(&hybrid_cl, PPH_ARCH_OPENCL), 450000, 1e-6);
	pph__split_set_late(&hybrid_cl, PPH_ARCH_OPENCL, 0);
	hybrid_call_slow_link(0);
	late = pph__split_late_us(&hybrid_cl, PPH_ARCH_CPU) +
	       pph__split_late_us(&hybrid_cl, PPH_ARCH_OPENCL);
	CU_ASSERT(isfinite(late) && late >= 0);
}

/* Submitting a block costs the call's thread, and a block starts once
 * submitted.  The device made 8 ms late, the call splits (the CPU worker
 * alone takes 16 ms, the device alone some 8).  At 20 ms a block (the
 * device's first, the CPU worker's after it), the CPU worker's block
 * would end after the device alone ends the whole call: it gets none. */
static size_t call_device_late(double submit_us)
{
	pph__split_set_late(&hybrid_cl, PPH_ARCH_OPENCL, 8000);
	pph__split_set_late(&hybrid_cl, PPH_ARCH_CPU, 0);
	pph__split_set_submit_us(submit_us);
	return hybrid_call_slow_link(0);
}

static void test_hybrid_split_submission(void)
{
	double submit = pph__split_submit_us();
	size_t device = call_device_late(0);

	CU_ASSERT(device > 0 && device < 2048);
	CU_ASSERT_EQUAL(call_device_late(20000), 2048);
	pph__split_set_late(&hybrid_cl, PPH_ARCH_OPENCL, 0);
	/* PEPPHER_STATS says what the split did, and what a block's submission
	 * costs (set here: the calls before may have measured none, each
	 * given to one kind whole) */
	pph__split_set_submit_us(12.5);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
		pph_stats_print(fp);
		fclose(fp);
		CU_ASSERT_PTR_NOT_NULL(strstr(buf, "split data_hybrid_add: "));
		CU_ASSERT_PTR_NOT_NULL(strstr(buf, "split calls: a block submitted in 12.5 us\n"));
		free(buf);
	}
	pph__split_set_submit_us(submit);
}

/* A variant 20 ms slower on the CPU than on the device, reading a vector
 * whose copy to the device costs 80 ms (this process's model): each
 * version of the vector is read by 12 such tasks, so one copy serves them
 * all there (6.7 ms each; charged the whole copy, each would run on the
 * CPU).  At 5 ms and 20 ms, a loaded machine's PoCL kernel could take
 * longer than the CPU's lead. */
static atomic_int share_on_device;

static void share_cpu(void *b[], void *arg)
{
	spin_us(20000);
	sum_cpu(b, arg);
}

static void share_ocl(void *b[], void *arg)
{
	sum_ocl(b, arg);
	atomic_fetch_add(&share_on_device, 1);
}

static const struct pph_impl share_impls[] = { { PPH_ARCH_CPU, share_cpu, "share_cpu", 0 },
					       { PPH_ARCH_OPENCL, share_ocl, "share_ocl", 0 } };
static const struct pph_codelet share_cl = { "data_share_copy", 2, share_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl host_fill_impls[] = { { PPH_ARCH_CPU, fill_cpu, "fill_cpu", 0 } };
static const struct pph_codelet host_fill_cl = { "data_host_fill", 1, host_fill_impls,
						 PPH_MODEL_DEFAULT };

/* dmda charges each reader its share of the copy: once the vector's
 * versions have shown 12 readers, the first reader of a version goes to
 * the device (1.7 ms of copy and the kernel against 5 ms) and the others
 * follow, the copy made.  Charged the whole copy, every reader stayed on
 * the CPU. */
static void test_copy_shared_by_readers(void)
{
	enum { READERS = 12, ROUNDS = 12, LAST = 4 };
	static int y[N], out[READERS];
	const double slow_lat[2] = { 80000, 80000 };
	const unsigned node = opencl_node();
	const int want = N * (ROUNDS - 1) + N * (N - 1) / 2;
	double lat[2], bw[2];
	pph_data_handle hy, hout[READERS], hs[2];
	enum pph_access fill_mode = PPH_W, modes[2] = { PPH_R, PPH_W };
	int r, j, x, late;

	pph__transfer_model_get(node, lat, bw);
	pph__transfer_model_set(node, slow_lat, bw, 0);
	pph_vector_register(&hy, y, N, sizeof(int));
	for (j = 0; j < READERS; j++)
		pph_vector_register(&hout[j], &out[j], 1, sizeof(int));
	/* once on the device first: a variant calibrated by an earlier run of
	 * this test is charged its program's build until it has run in the
	 * process, and no call gains that much */
	hs[0] = hy;
	hs[1] = hout[0];
	CU_ASSERT_EQUAL(pph_call_sync(&share_cl, 1u << 1, 2, hs, modes, NULL, 0), 0);
	for (r = 0; r < ROUNDS; r++) {
		x = r;
		CU_ASSERT_EQUAL(pph_call_sync(&host_fill_cl, PPH_ALL_IMPLS, 1, &hy, &fill_mode, &x,
					      sizeof(x)), 0);
		if (r == ROUNDS - LAST)
			atomic_store(&share_on_device, 0);
		for (j = 0; j < READERS; j++) {
			hs[0] = hy;
			hs[1] = hout[j];
			CU_ASSERT_EQUAL(pph_call_sync(&share_cl, PPH_ALL_IMPLS, 2, hs, modes, NULL, 0), 0);
		}
	}
	late = atomic_load(&share_on_device);
	pph__transfer_model_set(node, lat, bw, 1);
	fprintf(stderr, "shared copy: %d of the last %d readers on the device\n", late,
		LAST * READERS);
	CU_ASSERT(late >= LAST * READERS * 3 / 4);
	pph_data_unregister(hy);
	for (j = 0; j < READERS; j++) {
		pph_data_unregister(hout[j]);
		CU_ASSERT_EQUAL(out[j], want);
	}
}

/* The share, exactly: a version read by 4 tasks makes the next version's
 * copy cost a quarter; 6 readers listed for it already, a sixth; whole
 * for a hybrid split's block. */
static void test_copy_share_estimate(void)
{
	static int v[N], out;
	const unsigned node = opencl_node();
	const double in = pph__transfer_time(node, 0, BYTES);
	pph_data_handle h, o, hs[2];
	enum pph_access fill_mode = PPH_W, modes[2] = { PPH_R, PPH_W };
	struct pph_task *rw;
	int i, x = 1;

	pph_vector_register(&h, v, N, sizeof(int));
	pph_vector_register(&o, &out, 1, sizeof(int));
	hs[0] = h;
	hs[1] = o;
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&sum_cl, 1u << CPU, 2, hs, modes, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&host_fill_cl, PPH_ALL_IMPLS, 1, &h, &fill_mode, &x,
				      sizeof(x)), 0);
	rw = pph_task_create(&add_cl);
	CU_ASSERT_FATAL(rw && pph_task_add_buffer(rw, h, PPH_RW) == 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, node, 1), in / 4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, node, 0), in, 1e-9);
	for (i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&sum_cl, 1u << CPU, 2, hs, modes, NULL, 0), 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, node, 1), in / 6, 1e-9);
	pph_task_destroy(rw);
	pph_data_unregister(h);
	pph_data_unregister(o);
}

/*
 * A copy is shared by the version's readers still to come: one that has
 * read it on the device shares no copy home.  Versions written on the
 * device, each read there and on the CPU: the CPU reader is charged half
 * the copy home while the device's is to come, all of it once it has run
 * (the ODE solver's step copy, k0 = k6 after the error estimate read k6 on
 * the H200's GPU, was charged half and ran on the CPU).
 */
static void test_copy_share_leaves_out_readers_done(void)
{
	static int v[N], out;
	const unsigned node = opencl_node();
	const uint64_t bytes = BYTES; /* HOME: as estimated at each check */
	pph_data_handle h, o;
	struct pph_task *reader;
	int r;

	pph_vector_register(&h, v, N, sizeof(int));
	pph_vector_register(&o, &out, 1, sizeof(int));
	for (r = 0; r < 3; r++) {
		call_sync(&fill_cl, GPU, h, PPH_W, NULL, r);
		call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
		call_sync(&sum_cl, CPU, h, PPH_R, o, 0);
	}
	CU_ASSERT_EQUAL(out, 2 * N + N * (N - 1) / 2);
	reader = pph_task_create(&sum_cl);
	CU_ASSERT_FATAL(reader && pph_task_add_buffer(reader, h, PPH_R) == 0);
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 3);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(reader, 0, 1), HOME / 2, 1e-9);
	call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(reader, 0, 1), HOME, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(reader, 0, 0), HOME, 1e-9);
	pph_task_destroy(reader);
	pph_data_unregister(h);
	pph_data_unregister(o);
}

/* A kernel that reads one element of a large vector: its copy in takes
 * far longer than it does. */
static void first_ocl(void *b[], void *arg)
{
	(void)arg;
	run_kernel_n("sum", b, 1, 0, 1);
}

static const struct pph_impl first_impls[] = { { PPH_ARCH_OPENCL, first_ocl, "first_ocl", 0 } };
static const struct pph_codelet first_cl = { "data_first_element", 1, first_impls,
					     PPH_MODEL_DEFAULT };

/* A variant's history holds its own time, not that of the copies it
 * waited for: copied in before each run (the host wrote the vector), the
 * kernel is predicted at a fraction of the copy. */
static void test_history_without_copies(void)
{
	/* a 128 MB copy, some 12 ms: at a load of 9 on 2 cores, PoCL ran
	 * this one-element kernel in 1.4 ms, at 16 in up to 9 ms */
	enum { LEN = 32 << 20, RUNS = 6 };
	int *v = calloc(LEN, sizeof(int)), out = 0, i;
	const unsigned node = opencl_node();
	const double copy_us = pph__transfer_time(node, 0, (uint64_t)LEN * sizeof(int));
	pph_data_handle h, o, hs[2];
	enum pph_access modes[2] = { PPH_R, PPH_W };
	struct pph_task *t;
	double size, pred;
	uint32_t fp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	pph_vector_register(&h, v, LEN, sizeof(int));
	pph_vector_register(&o, &out, 1, sizeof(int));
	hs[0] = h;
	hs[1] = o;
	for (i = 0; i < RUNS; i++) {
		CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_W), 0);
		v[0] = i;
		CU_ASSERT_EQUAL(pph_call_sync(&first_cl, PPH_ALL_IMPLS, 2, hs, modes, NULL, 0), 0);
	}
	t = pph_task_create(&first_cl);
	CU_ASSERT_FATAL(t && pph_task_add_buffer(t, h, PPH_R) == 0 &&
			pph_task_add_buffer(t, o, PPH_W) == 0);
	fp = pph__task_footprint(t, &size);
	pred = pph__perfmodel_predict(&first_cl, 0, PPH_ARCH_OPENCL, 1, fp, size);
	fprintf(stderr, "first element: kernel predicted %.0f us, copy in %.0f us\n", pred,
		copy_us);
	CU_ASSERT(pred >= 0 && pred < copy_us / 2);
	pph_task_destroy(t);
	pph_data_unregister(h);
	pph_data_unregister(o);
	CU_ASSERT_EQUAL(out, RUNS - 1);
	free(v);
}

static int count_substr(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub))) {
		n++;
		s += strlen(sub);
	}
	return n;
}

/* The runtime started again with PEPPHER_TRACE at path (a template
 * ending XXXXXX, made a file). */
static void trace_begin(char *path)
{
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	pph_shutdown();
	setenv("PEPPHER_TRACE", path, 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
}

/* The runtime stopped, the trace it wrote at path read into buf (size
 * bytes at most, NUL-terminated) and removed. */
static void trace_end(const char *path, char *buf, size_t size)
{
	size_t len;
	FILE *fp;

	pph_shutdown();
	unsetenv("PEPPHER_TRACE");
	fp = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	len = fread(buf, 1, size - 1, fp);
	buf[len] = '\0';
	fclose(fp);
	unlink(path);
}

/* Transfers are slices of the trace, with their bytes: the workers' on
 * their tracks, the application's (an unregister's) on a track of its own. */
static void test_trace_transfers(void)
{
	char path[] = "/tmp/peppher-trace-XXXXXX", buf[65536], bytes[64];
	int v[N] = { 0 };
	pph_data_handle h;

	trace_begin(path);
	pph_vector_register(&h, v, N, sizeof(int));
	call(&fill_cl, GPU, h, PPH_W, NULL, 1);		/* no transfer */
	call(&add_cl, CPU, h, PPH_RW, NULL, 1);		/* the CPU worker fetches it */
	call(&add_cl, GPU, h, PPH_RW, NULL, 1);		/* the OpenCL worker sends it */
	pph_data_unregister(h);				/* the application thread's */
	trace_end(path, buf, sizeof(buf));
	snprintf(bytes, sizeof(bytes), "\"args\":{\"bytes\":%zu}", BYTES);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"transfer to host\""), 2);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"transfer to device\""), 1);
	CU_ASSERT_EQUAL(count_substr(buf, bytes), 3);
	CU_ASSERT_EQUAL(count_substr(buf, "\"args\":{\"name\":\"application threads\"}"), 1);
	CU_ASSERT_EQUAL(count_substr(buf, "\"cat\":\"task\""), 3);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* Variants that take 2 ms on the CPU and 20 ms on the device: apart enough
 * that a loaded machine (CI's builds beside the tests on 2 cores), which
 * stretches both as their threads wait for a core, does not make the
 * device's history the shorter (at 6 ms it once did: dmda then ran the CPU
 * variant as a refresh, its history measured at over 6 ms). */
static void why_cpu(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	spin_us(2000);
}

static void why_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	spin_us(20000);
}

static const struct pph_impl why_impls[] = { { PPH_ARCH_CPU, why_cpu, "why_cpu", 0 },
					     { PPH_ARCH_OPENCL, why_ocl, "why_ocl", 0 } };
static const struct pph_codelet why_cl = { "data_why", 2, why_impls, PPH_MODEL_DEFAULT };

/* The number after "NAME": in the trace's slice at s, or -1. */
static double arg_in(const char *s, const char *name)
{
	char key[64];
	const char *at, *end = strchr(s, '}');
	double v;

	snprintf(key, sizeof(key), "\"%s\":", name);
	at = strstr(s, key);
	if (!at || (end && at > end) || sscanf(at + strlen(key), "%lf", &v) != 1)
		return -1;
	return v;
}

/*
 * A traced task's slice says why dmda put it where it ran: its expected
 * wait, run and copies there, and the earliest end on the other memory
 * node, which it was weighed against.  The CPU's 2 ms on a vector the
 * host wrote, against the device's 20 ms and the vector's copy there (a
 * trace showed the ODE solver's copies on the CPU between CUDA tasks, and
 * not why).
 */
static void test_trace_says_why(void)
{
	static int v[N];
	char path[] = "/tmp/peppher-trace-XXXXXX", buf[1 << 16], other[64];
	const char *slice, *last = NULL;
	int i, x = 1;
	enum pph_access mode = PPH_R, fill_mode = PPH_W;
	struct pph_task *probe;
	double copies, size;
	uint32_t fp;
	pph_data_handle h;

	trace_begin(path);
	pph_vector_register(&h, v, N, sizeof(int));
	probe = pph_task_create(&why_cl);
	CU_ASSERT_FATAL(probe && pph_task_add_buffer(probe, h, PPH_R) == 0);
	fp = pph__task_footprint(probe, &size);
	pph_task_destroy(probe);
	/* calibrated, each way: a run slowed by a loaded machine is an
	 * outlier, not a sample, so run until each holds enough (the CI's
	 * 4 rounds left one of them 2) */
	for (i = 0; i < 40 && (pph__perfmodel_samples(&why_cl, CPU, PPH_ARCH_CPU, 1, fp, size) <
				       PPH_CALIBRATION_MIN ||
			       pph__perfmodel_samples(&why_cl, GPU, PPH_ARCH_OPENCL, 1, fp, size) <
				       PPH_CALIBRATION_MIN);
	     i++) {
		CU_ASSERT_EQUAL(pph_call_sync(&why_cl, 1u << CPU, 1, &h, &mode, NULL, 0), 0);
		CU_ASSERT_EQUAL(pph_call_sync(&why_cl, 1u << GPU, 1, &h, &mode, NULL, 0), 0);
	}
	CU_ASSERT_FATAL(i < 40);
	/* the host writes it: the device's copy is stale */
	CU_ASSERT_EQUAL(pph_call_sync(&host_fill_cl, PPH_ALL_IMPLS, 1, &h, &fill_mode, &x,
				      sizeof(x)), 0);
	probe = pph_task_create(&why_cl);
	CU_ASSERT_FATAL(probe && pph_task_add_buffer(probe, h, PPH_R) == 0);
	copies = pph__transfer_estimate(probe, opencl_node(), 1);
	pph_task_destroy(probe);
	snprintf(other, sizeof(other), "\"other\":\"why_ocl on worker %u (OPENCL)\"",
		 pph_worker_count() - 1); /* the last worker */
	CU_ASSERT_EQUAL(pph_call_sync(&why_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
	pph_data_unregister(h);
	trace_end(path, buf, sizeof(buf));
	for (slice = buf; (slice = strstr(slice, "\"name\":\"data_why/")); slice++)
		if (!last || arg_in(slice, "ts") > arg_in(last, "ts"))
			last = slice;
	CU_ASSERT_PTR_NOT_NULL_FATAL(last);
	CU_ASSERT_EQUAL(strncmp(last, "\"name\":\"data_why/why_cpu\",", 26), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(last, "\"args\":{\"placed\":\"fastest\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(last, other));
	/* the CPU's history (2 ms, or more on a loaded machine), under the
	 * device's */
	CU_ASSERT(arg_in(last, "run_us") >= 1800);
	CU_ASSERT(arg_in(last, "other_run_us") > arg_in(last, "run_us"));
	CU_ASSERT_DOUBLE_EQUAL(arg_in(last, "copies_us"), 0, 1e-9);
	CU_ASSERT(copies > 0);
	CU_ASSERT_DOUBLE_EQUAL(arg_in(last, "other_copies_us"), copies, 1e-3 * copies);
	CU_ASSERT(arg_in(last, "wait_us") >= 0 && arg_in(last, "other_wait_us") >= 0);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* Data left on the device comes home at shutdown; the handle outlives it. */
static void test_shutdown_flushes(void)
{
	int v[N], i, ok = 1;
	pph_data_handle h;

	pph_vector_register(&h, v, N, sizeof(int));
	call(&fill_cl, GPU, h, PPH_W, NULL, 42);
	pph_shutdown();
	for (i = 0; i < N; i++)
		ok &= v[i] == 42 + i;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* An OpenCL variant whose kernel does not build: tried once, disabled,
 * and every task runs on the CPU variant with the right result. */
static int broken_tries;

static void add_broken_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	broken_tries++; /* one OpenCL worker: no race */
	if (pph_opencl_kernel_source("__kernel void add(__global int *v) { v[0] += ; }", "add"))
		CU_FAIL("a broken kernel built");
}

static const struct pph_impl broken_impls[] = {
	{ PPH_ARCH_OPENCL, add_broken_ocl, "add_broken_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "add_cpu", 0 },
};
static const struct pph_codelet broken_cl = { "data_add_broken", 2, broken_impls, PPH_MODEL_DEFAULT };

/* Calls ready at once, several queued for the OpenCL worker when the
 * first of them finds the kernel broken: those go to the CPU worker, which
 * takes nothing from a device's queue by itself (they waited there for
 * good, and the program with them).  Each sums the same vector into a
 * result of its own. */
static const struct pph_impl broken_sum_impls[] = {
	{ PPH_ARCH_OPENCL, add_broken_ocl, "add_broken_ocl", 0 },
	{ PPH_ARCH_CPU, sum_cpu, "sum_cpu", 0 },
};
static const struct pph_codelet broken_queued_cl = { "data_sum_broken_queued", 2,
						     broken_sum_impls, PPH_MODEL_DEFAULT };

/* A CPU task that holds its data until gate_open: the calls submitted
 * behind it become ready together, all submitted before any runs (one
 * submitted after the first found the kernel broken would be refused at
 * once, -ENODEV). */
static atomic_int gate_open;

static void wait_gate_cpu(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	/* never tiny, whatever its history: a tiny task runs in place, on
	 * the thread that is to open the gate (a PEPPHER_HOME kept over many
	 * runs had it predicted at a few us, and the test hung) */
	spin_us(1000);
	while (!atomic_load(&gate_open))
		sched_yield();
}

static const struct pph_impl gate_impls[] = { { PPH_ARCH_CPU, wait_gate_cpu, "wait_gate_cpu", 0 } };
static const struct pph_codelet gate_cl = { "data_gate", 1, gate_impls, PPH_MODEL_DEFAULT };

/* K calls, each summing the same vector into a result of its own,
 * allowed the variants in mask, ready together: each result is then
 * expect. */
static void broken_sum_calls(const struct pph_codelet *cl, unsigned mask, int expect)
{
	enum { K = 10 };
	int v[N], out[K], i, k;
	pph_data_handle h[K + 1];
	enum pph_access modes[2] = { PPH_R, PPH_W };

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h[K], v, N, sizeof(int));
	atomic_store(&gate_open, 0);
	CU_ASSERT_EQUAL(pph_call_async(&gate_cl, PPH_ALL_IMPLS, 1, &h[K], &modes[1], NULL, 0), 0);
	for (k = 0; k < K; k++) {
		pph_data_handle args[2] = { h[K], NULL };

		out[k] = -1;
		pph_vector_register(&h[k], &out[k], 1, sizeof(int));
		args[1] = h[k];
		CU_ASSERT_EQUAL(pph_call_async(cl, mask, 2, args, modes, NULL, 0), 0);
	}
	atomic_store(&gate_open, 1);
	for (k = 0; k <= K; k++)
		pph_data_unregister(h[k]);
	for (k = 0; k < K; k++)
		CU_ASSERT_EQUAL(out[k], expect);
}

static void queued_broken_calls(void)
{
	broken_sum_calls(&broken_queued_cl, PPH_ALL_IMPLS, N * (N - 1) / 2);
}

/* The same calls held to the device variant: those queued behind the
 * first fail too (-EIO, said once each), their results untouched. */
static const struct pph_codelet broken_forced_cl = { "data_sum_broken_forced", 2,
						     broken_sum_impls, PPH_MODEL_DEFAULT };

static void forced_broken_calls(void)
{
	broken_sum_calls(&broken_forced_cl, 1u << 0, -1);
}

/* A call split among kinds whose device blocks' kernel does not build:
 * those blocks run on the CPU, and the call is whole.  Held to the
 * device variant alone, the call fails (-EIO as its blocks fail, -ENODEV
 * once the variant is disabled) and its data stays as it was. */
static const struct pph_codelet broken_split_cl = { "data_add_broken_split", 2, broken_impls,
						    PPH_MODEL_DEFAULT };
static const struct pph_codelet broken_split_held_cl = { "data_add_broken_split_held", 2,
							 broken_impls, PPH_MODEL_DEFAULT };

static void split_broken_calls(void)
{
	enum { M = 100000 };
	static int v[M];
	int i, ok = 1, round, parts = 0, x = 1;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;

	for (i = 0; i < M; i++)
		v[i] = i;
	pph_vector_register(&h, v, M, sizeof(int));
	for (round = 0; round < 3; round++)
		CU_ASSERT_EQUAL(pph_call_partitioned(&broken_split_cl, PPH_ALL_IMPLS, 1, &h, &rw,
						     &parts, &x, sizeof(x)),
				0);
	CU_ASSERT_EQUAL(pph_call_partitioned(&broken_split_cl, 1u << 0, 1, &h, &rw, &parts, &x,
					     sizeof(x)),
			-ENODEV);
	parts = 4;
	CU_ASSERT_EQUAL(pph_call_partitioned(&broken_split_held_cl, 1u << 0, 1, &h, &rw, &parts,
					     &x, sizeof(x)),
			-EIO);
	pph_data_unregister(h);
	for (i = 0; i < M; i++)
		ok &= v[i] == i + 3;
	CU_ASSERT_TRUE(ok);
}

/* A chain of calls on one vector held to the device variant: the first
 * finds the kernel broken; the others, waiting on it, fail as they become
 * ready, said once each, the data as it was (dmda placed them on no
 * worker and crashed; eager and ws queued them for good), behind a gate
 * task. */
static const struct pph_codelet broken_chain_cl = { "data_add_broken_chain", 2, broken_impls,
						    PPH_MODEL_DEFAULT };

static void chained_broken_calls(void)
{
	int v[N], i, k, ok = 1, x = 1;
	pph_data_handle h;
	enum pph_access rw = PPH_RW;
	unsigned long failed = pph_failed_calls();

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	atomic_store(&gate_open, 0);
	CU_ASSERT_EQUAL(pph_call_async(&gate_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0), 0);
	for (k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(pph_call_async(&broken_chain_cl, 1u << 0, 1, &h, &rw, &x, sizeof(x)),
				0);
	atomic_store(&gate_open, 1);
	pph_data_unregister(h);
	for (i = 0; i < N; i++)
		ok &= v[i] == i;
	CU_ASSERT_TRUE(ok);
	/* asynchronous: counted for the program to see */
	CU_ASSERT_EQUAL(pph_failed_calls() - failed, 10);
}

static void test_failed_variant_chain(void)
{
	broken_tries = 0;
	CU_ASSERT_EQUAL(test_stderr_count(chained_broken_calls, "data_add_broken_chain: "), 10);
	CU_ASSERT_EQUAL(broken_tries, 1);
}

static void test_failed_variant_split(void)
{
	broken_tries = 0;
	CU_ASSERT_EQUAL(test_stderr_count(split_broken_calls,
					  "data_add_broken_split: variant add_broken_ocl disabled"),
			1);
	CU_ASSERT_EQUAL(broken_tries, 2);
}

static void test_failed_variant_queued(void)
{
	broken_tries = 0;
	CU_ASSERT_EQUAL(test_stderr_count(queued_broken_calls,
					  "data_sum_broken_queued: variant add_broken_ocl disabled"),
			1);
	CU_ASSERT_EQUAL(broken_tries, 1);
	CU_ASSERT_EQUAL(test_stderr_count(forced_broken_calls, "data_sum_broken_forced: "), 10);
	CU_ASSERT_EQUAL(broken_tries, 2);
}

static void test_failed_variant(void)
{
	int v[N], i, k, ok = 1;
	pph_data_handle h;

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	call(&fill_cl, GPU, h, PPH_W, NULL, 0); /* the data starts on the device */
	broken_tries = 0;
	for (k = 0; k < 10; k++)
		call(&broken_cl, -1, h, PPH_RW, NULL, 1);
	pph_data_unregister(h);
	for (i = 0; i < N; i++)
		ok &= v[i] == i + 10;
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(broken_tries, 1);
	/* the disabled variant alone: refused at submission, data unchanged */
	pph_vector_register(&h, v, N, sizeof(int));
	{
		struct pph_task *t = pph_task_create(&broken_cl);

		pph_task_add_buffer(t, h, PPH_RW);
		pph_task_force_impl(t, 0);
		CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV);
		pph_task_destroy(t);
	}
	pph_data_unregister(h);
	for (i = 0, ok = 1; i < N; i++)
		ok &= v[i] == i + 10;
	CU_ASSERT_TRUE(ok);
}

/*
 * A kernel named like an OpenCL built-in ("dot": clCreateKernel fails, -46
 * on PoCL) is reported once, not built again at every call: its variant is
 * disabled and its tasks run on the CPU variant with the data as it was.
 */
static const char *const dot_src =
	"__kernel void dot(__global int *v, uint n, int x)\n"
	"{ size_t i = get_global_id(0); if (i < n) v[i] += x; }\n";
static int dot_tries;

static void add_dot_ocl(void *b[], void *arg)
{
	cl_kernel k;
	cl_mem m = PPH_OPENCL_MEM(b[0]);
	cl_uint n = (cl_uint)PPH_VECTOR_N(b[0]);
	size_t global = n;

	dot_tries++; /* one OpenCL worker: no race */
	if (!(k = pph_opencl_kernel_source(dot_src, "dot")))
		return;
	clSetKernelArg(k, 0, sizeof(m), &m);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(int), arg);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}

/* write-only: what it would write is garbage, had it run */
static void fill_dot_ocl(void *b[], void *arg)
{
	add_dot_ocl(b, arg);
}

static const struct pph_impl dot_impls[] = {
	{ PPH_ARCH_OPENCL, add_dot_ocl, "add_dot_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "add_cpu", 0 },
};
static const struct pph_codelet dot_cl = { "data_add_dot", 2, dot_impls, PPH_MODEL_DEFAULT };
/* the same kernel in another component: the failure is remembered */
static const struct pph_impl dot2_impls[] = {
	{ PPH_ARCH_OPENCL, add_dot_ocl, "add_dot2_ocl", 0 },
	{ PPH_ARCH_CPU, add_cpu, "add2_cpu", 0 },
};
static const struct pph_codelet dot2_cl = { "data_add_dot2", 2, dot2_impls, PPH_MODEL_DEFAULT };
/* and in one without any other variant, writing only */
static const struct pph_impl dot_only_impls[] = {
	{ PPH_ARCH_OPENCL, fill_dot_ocl, "fill_dot_ocl", 0 },
};
static const struct pph_codelet dot_only_cl = { "data_fill_dot", 1, dot_only_impls, PPH_MODEL_DEFAULT };

static int all_equal(const int *v, int add)
{
	int i, ok = 1;

	for (i = 0; i < N; i++)
		ok &= v[i] == i + add;
	return ok;
}

static void dot_calls(void)
{
	int v[N], i, k, one = 1;
	pph_data_handle h;
	static const enum pph_access rw = PPH_RW, w = PPH_W;

	for (i = 0; i < N; i++)
		v[i] = i;
	pph_vector_register(&h, v, N, sizeof(int));
	call(&fill_cl, GPU, h, PPH_W, NULL, 0); /* the data starts on the device */
	dot_tries = 0;
	for (k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(pph_call_sync(&dot_cl, PPH_ALL_IMPLS, 1, &h, &rw, &one, sizeof(one)), 0);
	for (k = 0; k < 10; k++)
		CU_ASSERT_EQUAL(pph_call_sync(&dot2_cl, PPH_ALL_IMPLS, 1, &h, &rw, &one, sizeof(one)), 0);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_TRUE(all_equal(v, 20));
	CU_ASSERT_EQUAL(dot_tries, 2); /* once per component */
	/* no variant left: the call fails, and the data it would have
	 * written (only written: the device copy was never filled) stays */
	CU_ASSERT_EQUAL(pph_call_sync(&dot_only_cl, PPH_ALL_IMPLS, 1, &h, &w, &one, sizeof(one)),
			-EIO);
	CU_ASSERT_EQUAL(dot_tries, 3);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	CU_ASSERT_TRUE(all_equal(v, 20));
	/* the same once the only valid copy is on the device */
	call(&fill_cl, GPU, h, PPH_W, NULL, 5);
	CU_ASSERT_EQUAL(pph_call_sync(&dot_only_cl, PPH_ALL_IMPLS, 1, &h, &w, &one, sizeof(one)),
			-ENODEV); /* disabled now: refused at submission */
	pph_data_unregister(h);
	CU_ASSERT_TRUE(all_equal(v, 5));
}

static void test_kernel_named_dot(void)
{
	/* which variant, and where the kernel was looked for (it said "no
	 * kernel dot in dot") */
	CU_ASSERT_EQUAL(test_stderr_count(dot_calls,
					  "no kernel dot in the source given to pph_opencl_kernel_source for variant add_dot_ocl"),
			1);
}

/* The link to the device was measured once and stored with the models. */
static void test_transfer_model(void)
{
	char host[256] = "localhost", path[1024], line[256], arch[16];
	const char *home = getenv("PEPPHER_HOME");
	double lat_d, bw_d, lat_h, bw_h;
	unsigned index;
	int links = 0;
	FILE *fp;

	gethostname(host, sizeof(host) - 1);
	snprintf(path, sizeof(path), "%s/perfmodels/%s/transfers", home ? home : ".", host);
	fp = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), fp));
	CU_ASSERT_STRING_EQUAL(line, "peppher-transfers 1\n");
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "link %15s %u %lf %lf %lf %lf", arch, &index, &lat_d, &bw_d,
			   &lat_h, &bw_h) == 6) {
			links++;
			CU_ASSERT_TRUE(lat_d >= 0 && lat_h >= 0 && bw_d > 0 && bw_h > 0);
		}
	fclose(fp);
	CU_ASSERT_TRUE(links >= 1);
	/* the model dmda uses: more bytes take longer, both ways */
	CU_ASSERT_TRUE(pph__transfer_time(1, 0, 1 << 20) > pph__transfer_time(1, 0, 1 << 10));
	CU_ASSERT_TRUE(pph__transfer_time(1, 1, 1 << 20) > pph__transfer_time(1, 1, 1 << 10));
	CU_ASSERT_TRUE(pph__transfer_time(1, 0, 1) > 0);
}

/*
 * A program's copies home teach the link's slowdown, for both directions:
 * copies of 64 KiB and more whose bandwidth time is the latency's at
 * least, each counted as 4 times the slowdown so far at most.  Copies
 * whose bandwidth time is under the latency teach the latency's factor
 * instead, the median of the last 31.  What was learned is stored at
 * pph_shutdown and read back at pph_init; a link set by hand learns again
 * from none.
 */
static void test_transfer_slowdown(void)
{
	enum { M = 1 << 20, S = 16 }; /* 4 MiB: the bandwidth's time, not the latency's */
	static int v[M], w[S];
	const unsigned node = opencl_node();
	const uint64_t bytes = M * sizeof(int), small = 64;
	double lat[2], bw[2], learned, learned_lat;
	pph_data_handle h, hw;
	int i;

	/* a link of 100 us and 1 byte/us: 64 bytes are latency-bound */
	lat[0] = lat[1] = 100;
	bw[0] = bw[1] = 1;
	pph__transfer_model_set(node, lat, bw, 1);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 1, 1e-12);
	/* copies of 264, 164 and 2064 us (one caught by noise) teach the
	 * latency's factor, their median 2, and not the slowdown */
	pph__transfer_observed(node, small, 200 + small);
	pph__transfer_observed(node, small, 100 + small);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 1.5, 1e-12);
	pph__transfer_observed(node, small, 2000 + small);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_time(node, 0, small), 2 * 100 + small, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_time(node, 1, small), 2 * 100 + small, 1e-9);
	/* the slowdown learns from the time the learned latency leaves */
	pph__transfer_observed(node, 1 << 20, 2 * 100 + 3.0 * (1 << 20));
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 2, 1e-12);
	/* and the latency from what the slowed bandwidth leaves; the median
	 * of the last 31: 31 copies of factor 4 replace the three before */
	for (i = 0; i < 31; i++)
		pph__transfer_observed(node, small, 4 * 100 + 3.0 * small);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 4, 1e-12);

	/* 1 us and 1000 bytes/us: under 64 KiB nothing is learned */
	lat[0] = lat[1] = 1;
	bw[0] = bw[1] = 1000;
	pph__transfer_model_set(node, lat, bw, 1);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 1, 1e-12);
	pph__transfer_observed(node, 32 << 10, lat[1] + 9.0 * (32 << 10) / bw[1]);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), 1, 1e-12);
	pph__transfer_observed(node, bytes, lat[1] + 3.0 * (double)bytes / bw[1]);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(IN, lat[0] + 3.0 * (double)bytes / bw[0], 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(HOME, lat[1] + 3.0 * (double)bytes / bw[1], 1e-6);
	pph__transfer_observed(node, bytes, lat[1] + 100.0 * (double)bytes / bw[1]);
	/* 4 times the slowdown at most (a copy into pages not touched yet) */
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), (3.0 + 12) / 2, 1e-9);

	/* learned from real copies (the link measured here), stored, read back */
	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_vector_register(&h, v, M, sizeof(int));
	pph_vector_register(&hw, w, S, sizeof(int));
	for (i = 0; i < 3; i++) {
		call_sync(&fill_cl, GPU, h, PPH_W, NULL, i);
		CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
		CU_ASSERT_EQUAL(v[M - 1], i + M - 1);
		call_sync(&fill_cl, GPU, hw, PPH_W, NULL, i);
		CU_ASSERT_EQUAL(pph_data_acquire(hw, PPH_R), 0);
		CU_ASSERT_EQUAL(w[S - 1], i + S - 1);
	}
	pph_data_unregister(h);
	pph_data_unregister(hw);
	learned = pph__transfer_slowdown(node);
	learned_lat = pph__transfer_latency_factor(node);
	pph__transfer_model_get(node, lat, bw);
	fprintf(stderr, "copies home of 4 MiB: %.2f times the link's bandwidth time; of 64 bytes: %.2f times its latency (%.1f us)\n",
		learned, learned_lat, lat[1]);
	CU_ASSERT(learned >= 0.25 && learned <= 16);
	CU_ASSERT(learned_lat >= 0.25 && learned_lat <= 16);
	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_slowdown(node), learned, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_latency_factor(node), learned_lat, 1e-4);
}

/* dmda's cost of placing a task on the device: the copies in, and the copy
 * home of a result the host reads next (pph_data_set_host_reads). */
static void test_transfer_estimate(void)
{
	enum { M = 1 << 16 };
	static int v[M];
	const uint64_t bytes = M * sizeof(int);
	const unsigned node = opencl_node();
	const double in = pph__transfer_time(node, 0, bytes);
	const double home = pph__transfer_time(node, 1, bytes);
	pph_data_handle h;
	struct pph_task *w, *rw;

	pph_vector_register(&h, v, M, sizeof(int));
	w = pph_task_create(&add_cl);
	rw = pph_task_create(&add_cl);
	CU_ASSERT_FATAL(w && rw && pph_task_add_buffer(w, h, PPH_W) == 0 &&
			pph_task_add_buffer(rw, h, PPH_RW) == 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, node, 1), in, 1e-9);
	pph_data_set_host_reads(h, 1);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), home, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, node, 1), in + home, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(rw, 0, 1), 0, 1e-9); /* at home already */
	pph_data_set_host_reads(h, 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), 0, 1e-9);
	pph_task_destroy(w);
	pph_task_destroy(rw);
	pph_data_unregister(h);
}

/* A vector of M ints (its sums fit an int) and a sum's output, both
 * registered, and a task writing the vector, whose estimates are asked. */
#define M (1 << 15)
static int estimate_v[M], estimate_out;

static struct pph_task *estimate_begin(pph_data_handle *h, pph_data_handle *o)
{
	struct pph_task *w;

	pph_vector_register(h, estimate_v, M, sizeof(int));
	pph_vector_register(o, &estimate_out, 1, sizeof(int));
	w = pph_task_create(&add_cl);
	CU_ASSERT_FATAL(w && pph_task_add_buffer(w, *h, PPH_W) == 0);
	return w;
}

static void estimate_end(struct pph_task *w, pph_data_handle h, pph_data_handle o)
{
	pph_task_destroy(w);
	pph_data_unregister(h);
	pph_data_unregister(o);
}

/* A writer on a node is charged the copies the last version written there
 * needed to be read: to the device after the host wrote a version the
 * device read, home after the device wrote one the CPU read, none once a
 * version written on the device was read there. */
static void test_estimate_copies_to_readers(void)
{
	const uint64_t bytes = M * sizeof(int);
	const unsigned node = opencl_node();
	pph_data_handle h, o;
	struct pph_task *w = estimate_begin(&h, &o);
	int *v = estimate_v;
	call_sync(&fill_cl, CPU, h, PPH_W, NULL, 1);
	call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, 0, 1), IN, 1e-9);
	call_sync(&fill_cl, CPU, h, PPH_W, NULL, 2); /* unread: the version before counts */
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, 0, 1), IN, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), 0, 1e-9);
	call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 3);
	call_sync(&sum_cl, CPU, h, PPH_R, o, 0);
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 4);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), HOME, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, 0, 1), IN, 1e-9);
	pph_data_set_host_reads(h, 1); /* home once, whatever else reads it */
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), HOME, 1e-9);
	pph_data_set_host_reads(h, 0);
	call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 5);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), 0, 1e-9);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0); /* the host's read counts too */
	CU_ASSERT_EQUAL(v[M - 1], 5 + M - 1);
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 6);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), HOME, 1e-9);
	estimate_end(w, h, o);
}

/*
 * What a node's last version needed is forgotten once PPH_READERS_STALE
 * versions were written elsewhere since: the device wrote a version the
 * CPU read, then the CPU wrote every version and the device read each.
 * Kept, the device's copy home was charged for good (the ODE solver's
 * k0 = k6 on the H100, written on the GPU once at the start).
 */
static void test_estimate_forgets_stale_readers(void)
{
	const uint64_t bytes = M * sizeof(int);
	const unsigned node = opencl_node();
	pph_data_handle h, o;
	struct pph_task *w = estimate_begin(&h, &o);
	int i;
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 1);
	call_sync(&sum_cl, CPU, h, PPH_R, o, 0);
	for (i = 0; i < PPH_READERS_STALE; i++) {
		call_sync(&fill_cl, CPU, h, PPH_W, NULL, i);
		call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
		CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), HOME, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, 0, 1), IN, 1e-9);
	}
	call_sync(&fill_cl, CPU, h, PPH_W, NULL, 7);
	call_sync(&sum_cl, GPU, h, PPH_R, o, 0);
	CU_ASSERT_EQUAL(pph_data_acquire(o, PPH_R), 0);
	CU_ASSERT_EQUAL(estimate_out, M * 7 + M * (M - 1) / 2);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, 0, 1), IN, 1e-9);
	/* written there again and read home: known again */
	call_sync(&fill_cl, GPU, h, PPH_W, NULL, 8);
	call_sync(&sum_cl, CPU, h, PPH_R, o, 0);
	call_sync(&fill_cl, CPU, h, PPH_W, NULL, 9);
	CU_ASSERT_DOUBLE_EQUAL(pph__transfer_estimate(w, node, 1), HOME, 1e-9);
	estimate_end(w, h, o);
}
#undef M

/*
 * A step's copy between device tasks (the ODE solver's y = ynew): x made
 * on the device, copied into y, y read on the device.  Copies cost 100 ms
 * each way (this process's model); the device's copy variant takes 120 ms.
 * On the CPU the copy costs x's copy home (100 ms) and y's copy back to its
 * reader (100 ms): once the model has seen y copied back, the copy stays on
 * the device.  Charged its copy in only, it ran on the CPU each step.  (At
 * 10 ms and 14 ms, a loaded machine's PoCL took the device's history past
 * the 20 ms of the CPU's: 0 of 8 on the device, in one CI run of many.)
 */
static atomic_int copies_on_device;

static void copy_cpu(void *b[], void *arg)
{
	(void)arg;
	memcpy(PPH_VECTOR_PTR(b[0]), PPH_VECTOR_PTR(b[1]), PPH_VECTOR_N(b[0]) * sizeof(int));
}

static void slow_copy_ocl(void *b[], void *arg)
{
	spin_us(120000);
	run_kernel("copy", b, 0, 1);
	(void)arg;
	atomic_fetch_add(&copies_on_device, 1);
}

static const struct pph_impl copy_impls[] = { { PPH_ARCH_CPU, copy_cpu, "copy_cpu", 0 },
					      { PPH_ARCH_OPENCL, slow_copy_ocl, "slow_copy_ocl", 0 } };
static const struct pph_codelet copy_cl = { "data_copy_between_device_tasks", 2, copy_impls,
					    PPH_MODEL_DEFAULT };

static void test_copy_between_device_tasks(void)
{
	enum { ROUNDS = 16, LAST = 8 };
	static int x[N], y[N], out;
	const double slow_lat[2] = { 100000, 100000 };
	const unsigned node = opencl_node();
	double lat[2], bw[2];
	pph_data_handle hx, hy, ho, hs[2];
	enum pph_access modes[2] = { PPH_W, PPH_R };
	int r, late;

	pph_vector_register(&hx, x, N, sizeof(int));
	pph_vector_register(&hy, y, N, sizeof(int));
	pph_vector_register(&ho, &out, 1, sizeof(int));
	pph__transfer_model_get(node, lat, bw);
	pph__transfer_model_set(node, slow_lat, bw, 0);
	/* once on the device first, as in test_copy_shared_by_readers: its
	 * program's build is charged until it has run in the process */
	hs[0] = hy;
	hs[1] = hx;
	CU_ASSERT_EQUAL(pph_call_sync(&copy_cl, 1u << GPU, 2, hs, modes, NULL, 0), 0);
	for (r = 0; r < ROUNDS; r++) {
		if (r == ROUNDS - LAST)
			atomic_store(&copies_on_device, 0);
		call_sync(&fill_cl, GPU, hx, PPH_W, NULL, r);
		hs[0] = hy;
		hs[1] = hx;
		CU_ASSERT_EQUAL(pph_call_sync(&copy_cl, PPH_ALL_IMPLS, 2, hs, modes, NULL, 0), 0);
		call_sync(&sum_cl, GPU, hy, PPH_R, ho, 0);
	}
	late = atomic_load(&copies_on_device);
	pph__transfer_model_set(node, lat, bw, 1);
	fprintf(stderr, "copy between device tasks: %d of the last %d on the device\n", late, LAST);
	CU_ASSERT(late >= LAST - 2);
	pph_data_unregister(hx);
	pph_data_unregister(hy);
	pph_data_unregister(ho);
	CU_ASSERT_EQUAL(out, N * (ROUNDS - 1) + N * (N - 1) / 2);
}

static void expect_memory(unsigned long allocs, unsigned long reuses, unsigned long evictions)
{
	struct pph_transfer_stats s;

	pph_transfer_stats_get(&s);
	if (s.allocations != allocs || s.reuses != reuses || s.evictions != evictions)
		fprintf(stderr, "device memory: %lu allocations, %lu reuses, %lu evictions\n",
			s.allocations, s.reuses, s.evictions);
	CU_ASSERT_EQUAL(s.allocations, allocs);
	CU_ASSERT_EQUAL(s.reuses, reuses);
	CU_ASSERT_EQUAL(s.evictions, evictions);
}

/* The register / call / unregister pattern of raw-pointer calls: the
 * device buffer of the first call serves the nine others. */
static void test_allocation_cache(void)
{
	enum { M = 777 };
	int v[M], i, k, ok = 1;
	pph_data_handle h;

	for (i = 0; i < M; i++)
		v[i] = i;
	pph_transfer_stats_reset();
	for (k = 0; k < 10; k++) {
		pph_vector_register(&h, v, M, sizeof(int));
		call(&add_cl, GPU, h, PPH_RW, NULL, 1);
		pph_data_unregister(h);
	}
	for (i = 0; i < M; i++)
		ok &= v[i] == i + 10;
	CU_ASSERT_TRUE(ok);
	expect_transfers(10, 10ull * M * sizeof(int), 10, 10ull * M * sizeof(int), __LINE__);
	expect_memory(1, 9, 0);
}

/*
 * Raw-pointer calls on arrays of ever new sizes: the unused buffers they
 * leave stay within the cache's bound (set to 1 MiB here; PoCL's device is
 * the host's memory: a 64th of it by default), the most recently freed one
 * excepted, so that one larger than the bound is still reused; a size
 * called again is reused.  The cache grew to every size ever called (the
 * RSS from 83 MB to 5.9 GB on 997 sizes of 4 to 8 MB).
 */
enum { CACHE_BIG = 512 * 1024 };
static int cache_v[CACHE_BIG], cache_ref[CACHE_BIG];

/* A raw-pointer call on the first n elements: registered, run on the
 * device, unregistered. */
static void raw_call(size_t n)
{
	pph_data_handle h;
	size_t i;

	pph_vector_register(&h, cache_v, n, sizeof(int));
	call(&add_cl, GPU, h, PPH_RW, NULL, 1);
	pph_data_unregister(h);
	for (i = 0; i < n; i++)
		cache_ref[i]++;
}

static void test_cache_bound(void)
{
	enum { CALLS = 40, M0 = 16 * 1024, STEP = 1024 };
	const size_t bound = 1 << 20;
	unsigned node = opencl_node();
	size_t before = pph__mem_cache_bound(node), most = 0;
	int i, k;

	/* the default: a 64th of the memory PoCL reports */
	CU_ASSERT(before > 0 && before < SIZE_MAX);
	pph_task_wait_all();
	pph__mem_set_cache_bound(node, bound);
	CU_ASSERT(pph__mem_cached(node) <= bound);
	pph_transfer_stats_reset();
	for (k = 0; k < CALLS; k++) { /* 64 KiB, 68 KiB, ... 220 KiB */
		raw_call(M0 + (size_t)k * STEP);
		if (pph__mem_cached(node) > most)
			most = pph__mem_cached(node);
	}
	fprintf(stderr, "cache of unused buffers: at most %zu bytes, bound %zu\n", most, bound);
	CU_ASSERT(most <= bound);
	CU_ASSERT(most > bound / 2); /* it does cache */
	expect_memory(CALLS, 0, 0);
	for (k = 0; k < 4; k++) /* the last size again, and the one before it */
		raw_call(M0 + (size_t)(CALLS - 1 - k % 2) * STEP);
	expect_memory(CALLS, 4, 0);
	for (k = 0; k < 3; k++) { /* 2 MiB, twice the bound: kept alone, reused */
		raw_call(CACHE_BIG);
		CU_ASSERT_EQUAL(pph__mem_cached(node), CACHE_BIG * sizeof(int));
	}
	expect_memory(CALLS + 1, 6, 0);
	pph__mem_set_cache_bound(node, before);
	for (i = 0; i < CACHE_BIG && cache_v[i] == cache_ref[i]; i++)
		;
	CU_ASSERT_EQUAL(i, CACHE_BIG);
}

/* Under PEPPHER_LIMIT_OPENCL_MEM=1 (MiB), two 640 KiB vectors do not fit
 * together: the least recently used one is written back and evicted. */
static void test_eviction(void)
{
	enum { M = 160 * 1024, BIG = 300 * 1024 };
	const unsigned long long bytes = M * sizeof(int);
	static int v1[M], v2[M], big[BIG];
	pph_data_handle h1, h2, hb;
	int i, ok = 1;

	pph_vector_register(&h1, v1, M, sizeof(int));
	pph_vector_register(&h2, v2, M, sizeof(int));
	pph_transfer_stats_reset();
	call(&fill_cl, GPU, h1, PPH_W, NULL, 1);	/* v1 only on the device */
	pph_task_wait_all();
	expect_transfers(0, 0, 0, 0, __LINE__);
	call(&fill_cl, GPU, h2, PPH_W, NULL, 2);	/* evicts v1: written back */
	pph_task_wait_all();
	expect_transfers(0, 0, 1, bytes, __LINE__);
	call(&add_cl, GPU, h1, PPH_RW, NULL, 10);	/* evicts v2, v1 goes back */
	pph_task_wait_all();
	expect_transfers(1, bytes, 2, 2 * bytes, __LINE__);
	CU_ASSERT_EQUAL(pph_data_acquire(h1, PPH_R), 0); /* from the device */
	CU_ASSERT_EQUAL(pph_data_acquire(h2, PPH_R), 0); /* already home */
	expect_transfers(1, bytes, 3, 3 * bytes, __LINE__);
	expect_memory(1, 2, 2); /* an evicted buffer serves the next vector */
	for (i = 0; i < M; i++)
		ok &= v1[i] == 1 + i + 10 && v2[i] == 2 + i;
	CU_ASSERT_TRUE(ok);

	/* a task whose second buffer does not fit beside the first: the first,
	 * to be written, is as it was (it was marked written on the device,
	 * where its buffer, reused from v1's, held v1's values: they came home) */
	{
		pph_data_handle hs[2] = { h2, h1 };
		enum pph_access wr[2] = { PPH_W, PPH_R };

		CU_ASSERT_EQUAL(pph_call_sync(&copy_cl, 1u << GPU, 2, hs, wr, NULL, 0), -ENOMEM);
		CU_ASSERT_EQUAL(pph_data_acquire(h2, PPH_R), 0);
		CU_ASSERT_EQUAL(pph_data_acquire(h1, PPH_R), 0);
		for (i = 0, ok = 1; i < M; i++)
			ok &= v1[i] == 1 + i + 10 && v2[i] == 2 + i;
		CU_ASSERT_TRUE(ok);
	}

	/* larger than the limit: the task cannot run and the data stays as it was */
	for (i = 0; i < BIG; i++)
		big[i] = i;
	pph_vector_register(&hb, big, BIG, sizeof(int));
	call(&add_cl, GPU, hb, PPH_RW, NULL, 1);
	pph_data_unregister(hb);
	for (i = 0, ok = 1; i < BIG; i++)
		ok &= big[i] == i;
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h1);
	pph_data_unregister(h2);
}

/* Under the 1 MiB limit, four vectors of 256 KiB fill the device.  A task
 * reading the oldest and writing a fifth evicts another one, not what it
 * reads (that was evicted, written back, and copied in again at once). */
static void test_eviction_spares_the_task(void)
{
	enum { M = 64 * 1024 };
	static int v[5][M];
	pph_data_handle h[5], hs[2];
	enum pph_access modes[2] = { PPH_W, PPH_R };
	int k, i, ok = 1;

	for (k = 0; k < 5; k++)
		pph_vector_register(&h[k], v[k], M, sizeof(int));
	for (k = 0; k < 4; k++) /* only on the device, the oldest first */
		call_sync(&fill_cl, GPU, h[k], PPH_W, NULL, k);
	pph_transfer_stats_reset();
	hs[0] = h[4];
	hs[1] = h[0];
	CU_ASSERT_EQUAL(pph_call_sync(&copy_cl, 1u << GPU, 2, hs, modes, NULL, 0), 0);
	/* one evicted, written back; nothing copied in */
	expect_transfers(0, 0, 1, M * sizeof(int), __LINE__);
	for (k = 0; k < 5; k++)
		CU_ASSERT_EQUAL(pph_data_acquire(h[k], PPH_R), 0);
	for (i = 0; i < M; i++)
		ok &= v[0][i] == i && v[3][i] == 3 + i && v[4][i] == i;
	CU_ASSERT_TRUE(ok);
	for (k = 0; k < 5; k++)
		pph_data_unregister(h[k]);
}

static int limited_init(void)
{
	setenv("PEPPHER_NCPU", "1", 1);
	setenv("PEPPHER_LIMIT_OPENCL_MEM", "1", 1);
	return pph_init();
}

static int limited_clean(void)
{
	pph_shutdown();
	unsetenv("PEPPHER_LIMIT_OPENCL_MEM");
	return 0;
}

/* Random tasks on CPU and OpenCL workers over H shared vectors of M ints. */
static void stress(int M)
{
	enum { H = 6, T = 400 };
	int *val[H], *ref[H], h, i, t;
	pph_data_handle hd[H];
	unsigned seed = 99;

	for (h = 0; h < H; h++) {
		val[h] = malloc(M * sizeof(int));
		ref[h] = malloc(M * sizeof(int));
		for (i = 0; i < M; i++)
			val[h][i] = ref[h][i] = h * i;
		pph_vector_register(&hd[h], val[h], M, sizeof(int));
	}
	for (t = 0; t < T; t++) {
		int which = rand_r(&seed) % H, x = rand_r(&seed) % 100;
		int variant = rand_r(&seed) % 3 == 0 ? CPU : rand_r(&seed) % 2 ? GPU : -1;
		int fill = rand_r(&seed) % 5 == 0;

		call(fill ? &fill_cl : &add_cl, variant, hd[which],
		     fill ? PPH_W : PPH_RW, NULL, x);
		for (i = 0; i < M; i++)
			ref[which][i] = fill ? x + i : ref[which][i] + x;
		if (rand_r(&seed) % 40 == 0) /* the host looks now and then */
			CU_ASSERT_EQUAL(pph_data_acquire(hd[which], PPH_R), 0);
	}
	for (h = 0; h < H; h++) {
		pph_data_unregister(hd[h]);
		CU_ASSERT_EQUAL(memcmp(val[h], ref[h], M * sizeof(int)), 0);
		free(val[h]);
		free(ref[h]);
	}
}

static void test_stress(void)
{
	stress(64);
}

/* 6 vectors of 256 KiB under a 1 MiB limit: evictions all along */
static void test_stress_evicting(void)
{
	struct pph_transfer_stats s;

	pph_transfer_stats_reset();
	stress(64 * 1024);
	pph_transfer_stats_get(&s);
	CU_ASSERT_TRUE(s.evictions > 0);
}

static int suite_init(void)
{
	setenv("PEPPHER_NCPU", "1", 1);
	return pph_init();
}

static int suite_clean(void)
{
	pph_shutdown();
	return 0;
}

/*
 * Data registered at NULL holding elements: C APIs pass NULL for "none"
 * (an optional array with its length), and the CPU variant that delegates
 * to the library expects NULL.  No device variant can have it (a copy
 * from NULL): the call runs on the host, moving nothing.
 */
static atomic_int null_seen, null_on_device;

static void null_cpu(void *b[], void *arg)
{
	(void)arg;
	if (PPH_VECTOR_PTR(b[0]) == NULL && PPH_VECTOR_N(b[0]) > 0)
		atomic_fetch_add(&null_seen, 1);
}

static void null_ocl(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	atomic_fetch_add(&null_on_device, 1);
}

static const struct pph_impl null_impls[] = { { PPH_ARCH_CPU, null_cpu, "null_cpu", 0 },
					      { PPH_ARCH_OPENCL, null_ocl, "null_ocl", 0 } };
static const struct pph_codelet null_cl = { "data_null", 2, null_impls, PPH_MODEL_DEFAULT };

static void test_null_data_on_host(void)
{
	pph_data_handle h;
	enum pph_access r = PPH_R;
	int i;

	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, NULL, N, sizeof(int)), 0);
	atomic_store(&null_seen, 0);
	atomic_store(&null_on_device, 0);
	pph_transfer_stats_reset();
	for (i = 0; i < 20; i++) /* uncalibrated: dmda would try the device */
		CU_ASSERT_EQUAL(pph_call_sync(&null_cl, PPH_ALL_IMPLS, 1, &h, &r, NULL, 0), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&null_cl, 1u << 1, 1, &h, &r, NULL, 0), -EFAULT);
	{ /* its blocks are NULL too */
		int parts = 4;

		CU_ASSERT_EQUAL(pph_call_partitioned(&null_cl, PPH_ALL_IMPLS, 1, &h, &r, &parts,
						     NULL, 0), 0);
	}
	CU_ASSERT_EQUAL(atomic_load(&null_seen), 24);
	CU_ASSERT_EQUAL(atomic_load(&null_on_device), 0);
	expect_transfers(0, 0, 0, 0, __LINE__);
	pph_data_unregister(h);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	setenv("PEPPHER_NCPU", "1", 1);
	if (pph_init() != 0)
		return 1;
	/* no OpenCL device (or no OpenCL build): nothing to test here */
	failed = pph_worker_count_arch(PPH_ARCH_OPENCL) == 0;
	pph_shutdown();
	if (failed) {
		printf("no OpenCL device: skipped\n");
		return 77;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("coherence", suite_init, suite_clean);
	CU_add_test(s, "Fig. 3: 2 transfers, not 7", test_fig3);
	CU_add_test(s, "data registered at NULL stays on the host", test_null_data_on_host);
	CU_add_test(s, "two reads on the device: one transfer", test_read_twice_on_device);
	CU_add_test(s, "CPU task after a device write", test_cpu_after_device_write);
	CU_add_test(s, "unregister after device writes", test_unregister_after_device_write);
	CU_add_test(s, "host write invalidates the device copy", test_host_write_invalidates);
	CU_add_test(s, "matrix block with a leading dimension", test_matrix_block_on_device);
	CU_add_test(s, "matrix column blocks gathered", test_matrix_columns);
	CU_add_test(s, "vector blocks on different nodes gathered", test_vector_blocks);
	CU_add_test(s, "matrix tile views of a container", test_matrix_tile_views);
	CU_add_test(s, "a container's own memory is freed without a copy home",
		    test_destroy_own_memory);
	CU_add_test(s, "partitioned calls split by predicted throughput", test_hybrid_split);
	CU_add_test(s, "a device with slow copies gets a short block, or none", test_hybrid_split_slow_link);
	CU_add_test(s, "a kind whose blocks end late gets fewer rows", test_hybrid_split_late);
	CU_add_test(s, "a block starts once submitted: one kind takes the call", test_hybrid_split_submission);
	CU_add_test(s, "auto: a block per worker that can run the call",
		    test_auto_blocks_for_able_workers);
	CU_add_test(s, "queued tasks' data moves at once", test_prefetch);
	CU_add_test(s, "a split's device block is copied by its worker", test_split_not_prefetched);
	CU_add_test(s, "asynchronous splits and device calls in turn, none waited for",
		    test_async_split_coherent);
	CU_add_test(s, "an asynchronous split that only writes: nothing copied",
		    test_async_split_write_only);
	CU_add_test(s, "shutdown brings device data home", test_shutdown_flushes);
	CU_add_test(s, "register/unregister per call reuses device buffers", test_allocation_cache);
	CU_add_test(s, "the cache of unused device buffers stays within its bound",
		    test_cache_bound);
	CU_add_test(s, "a kernel that does not build disables its variant", test_failed_variant);
	CU_add_test(s, "calls queued on the device when its kernel fails run on the CPU",
		    test_failed_variant_queued);
	CU_add_test(s, "calls waiting on one whose only variant fails fail too",
		    test_failed_variant_chain);
	CU_add_test(s, "a split call's device blocks whose kernel fails run on the CPU",
		    test_failed_variant_split);
	CU_add_test(s, "a kernel clCreateKernel refuses: once, data intact", test_kernel_named_dot);
	CU_add_test(s, "transfer model measured and stored", test_transfer_model);
	CU_add_test(s, "a copy to the device is shared by its version's readers",
		    test_copy_shared_by_readers);
	CU_add_test(s, "a copy's share: readers of the last version, or listed",
		    test_copy_share_estimate);
	CU_add_test(s, "a copy's share leaves out the readers done elsewhere",
		    test_copy_share_leaves_out_readers_done);
	CU_add_test(s, "a history holds the variant's time, not its copies'",
		    test_history_without_copies);
	CU_add_test(s, "a result the host reads costs its copy home", test_transfer_estimate);
	CU_add_test(s, "a writer pays the copies to its version's readers",
		    test_estimate_copies_to_readers);
	CU_add_test(s, "a program's copies home teach the link's slowdown",
		    test_transfer_slowdown);
	CU_add_test(s, "a writer's readers long gone are not charged",
		    test_estimate_forgets_stale_readers);
	CU_add_test(s, "a copy between device tasks stays on the device",
		    test_copy_between_device_tasks);
	CU_add_test(s, "transfers in traces", test_trace_transfers);
	CU_add_test(s, "a traced task says why it went where it did", test_trace_says_why);
	s = CU_add_suite("memory limit", limited_init, limited_clean);
	CU_add_test(s, "eviction under PEPPHER_LIMIT_OPENCL_MEM", test_eviction);
	CU_add_test(s, "eviction spares the replicas of the task placed",
		    test_eviction_spares_the_task);
	CU_add_test(s, "random tasks under the limit equal a sequential run", test_stress_evicting);
	s = CU_add_suite("driver_opencl", suite_init, suite_clean);
	CU_add_test(s, "random CPU and OpenCL tasks equal a sequential run", test_stress);
	failed = test_run_registry();
	return failed;
}
