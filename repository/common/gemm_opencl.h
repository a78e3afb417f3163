/*
 * The OpenCL variants of sgemm and dgemm: C = alpha * A * B + beta * C,
 * row-major, by a kernel that stages GEMM_TS x GEMM_TS tiles of A and B in
 * local memory.  The including file defines REAL (float or double) and
 * REAL_NAME, the same as a string.  Sizes that are not multiples of the tile
 * are padded with zeros in local memory; the work size is rounded up.
 */
#include <stdio.h>

#include <peppher/opencl.h>

#define GEMM_TS 16
#define GEMM_STR_(x) #x
#define GEMM_STR(x) GEMM_STR_(x)

static const char gemm_source[] =
	"#ifdef cl_khr_fp64\n"
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#endif\n"
	"#define REAL " REAL_NAME "\n"
	"#define TS " GEMM_STR(GEMM_TS) "\n"
	"__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))\n"
	"void gemm_tiled(int m, int n, int k, REAL alpha, __global const REAL *A,\n"
	"		__global const REAL *B, REAL beta, __global REAL *C)\n"
	"{\n"
	"	__local REAL As[TS][TS], Bs[TS][TS];\n"
	"	int col = get_global_id(0), row = get_global_id(1);\n"
	"	int lc = get_local_id(0), lr = get_local_id(1);\n"
	"	REAL acc = 0;\n"
	"	for (int t = 0; t < k; t += TS) {\n"
	"		As[lr][lc] = row < m && t + lc < k ? A[(long)row * k + t + lc] : 0;\n"
	"		Bs[lr][lc] = t + lr < k && col < n ? B[(long)(t + lr) * n + col] : 0;\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		for (int l = 0; l < TS; l++)\n"
	"			acc += As[lr][l] * Bs[l][lc];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (row < m && col < n) {\n"
	"		long i = (long)row * n + col;\n"
	"		C[i] = beta == 0 ? alpha * acc : alpha * acc + beta * C[i];\n"
	"	}\n"
	"}\n";

static void gemm_opencl(const char *who, int m, int n, int k, REAL alpha, cl_mem A,
			cl_mem B, REAL beta, cl_mem C)
{
	cl_kernel kern = pph_opencl_kernel_source(gemm_source, "gemm_tiled");
	size_t local[2] = { GEMM_TS, GEMM_TS };
	size_t global[2] = { (size_t)(n + GEMM_TS - 1) / GEMM_TS * GEMM_TS,
			     (size_t)(m + GEMM_TS - 1) / GEMM_TS * GEMM_TS };
	cl_int err = 0;

	if (m <= 0 || n <= 0) /* an empty C (a range of 0 work-items is an error) */
		return;
	if (!kern) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	/* alpha == 0: A and B are not read (BLAS semantics, NaNs there do not
	 * leak into C); the kernel with k = 0 computes C = beta C */
	if (alpha == 0)
		k = 0;
	err |= clSetKernelArg(kern, 0, sizeof(m), &m);
	err |= clSetKernelArg(kern, 1, sizeof(n), &n);
	err |= clSetKernelArg(kern, 2, sizeof(k), &k);
	err |= clSetKernelArg(kern, 3, sizeof(alpha), &alpha);
	err |= clSetKernelArg(kern, 4, sizeof(A), &A);
	err |= clSetKernelArg(kern, 5, sizeof(B), &B);
	err |= clSetKernelArg(kern, 6, sizeof(beta), &beta);
	err |= clSetKernelArg(kern, 7, sizeof(C), &C);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), kern, 2, NULL, global, local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: kernel launch failed (%d)\n", who, (int)err);
		pph_variant_failed();
	}
}
