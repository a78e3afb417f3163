/* The LUD panel in OpenCL: one work-item factors the diagonal block, then a
 * work-item per column of U's blocks and row of L's blocks. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void diagonal(__global float *A, int n, int k0)\n"
	"{\n"
	"	int i, j, p, end = k0 + 16;\n"
	"	for (i = k0; i < end; i++) {\n"
	"		for (j = i; j < end; j++)\n"
	"			for (p = k0; p < i; p++)\n"
	"				A[i * n + j] -= A[i * n + p] * A[p * n + j];\n"
	"		for (j = i + 1; j < end; j++) {\n"
	"			for (p = k0; p < i; p++)\n"
	"				A[j * n + i] -= A[j * n + p] * A[p * n + i];\n"
	"			A[j * n + i] /= A[i * n + i];\n"
	"		}\n"
	"	}\n"
	"}\n"
	"__kernel void perimeter(__global float *A, int n, int k0)\n"
	"{\n"
	"	int i, p, end = k0 + 16, j = end + get_global_id(0);\n"
	"	if (j >= n)\n"
	"		return;\n"
	"	for (i = k0; i < end; i++)\n"
	"		for (p = k0; p < i; p++)\n"
	"			A[i * n + j] -= A[i * n + p] * A[p * n + j];\n"
	"	for (i = k0; i < end; i++) {\n"
	"		for (p = k0; p < i; p++)\n"
	"			A[j * n + i] -= A[j * n + p] * A[p * n + i];\n"
	"		A[j * n + i] /= A[i * n + i];\n"
	"	}\n"
	"}\n";

/* Both kernels take (A, n, k0). */
static cl_int set_args(cl_kernel k, cl_mem *a, int *n, int *k0)
{
	return clSetKernelArg(k, 0, sizeof(*a), a) | clSetKernelArg(k, 1, sizeof(*n), n) |
	       clSetKernelArg(k, 2, sizeof(*k0), k0);
}

void lud_panel_ocl(float *A, int n, int k0)
{
	cl_kernel diagonal = pph_opencl_kernel_source(source, "diagonal");
	cl_kernel perimeter = pph_opencl_kernel_source(source, "perimeter");
	cl_mem a = (cl_mem)(void *)A;
	size_t one = 1, global = ((size_t)(n - k0 - 16) + 63) / 64 * 64, local = 64;
	char why[64];
	cl_int err;

	if (!diagonal || !perimeter) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	/* both kernels' arguments set before either runs, so that a refused
	 * one leaves A as it was */
	err = set_args(diagonal, &a, &n, &k0) | set_args(perimeter, &a, &n, &k0);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), diagonal, 1, NULL, &one, &one, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, A is as it was: another variant runs the panel */
		fprintf(stderr, "lud_panel_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
		return;
	}
	if (global == 0)
		return;
	err = clEnqueueNDRangeKernel(pph_opencl_queue(), perimeter, 1, NULL, &global, &local, 0,
				     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* the diagonal kernel is queued and changes A: another variant
		 * would factor its block twice, so the call fails instead */
		snprintf(why, sizeof(why), "perimeter kernel launch failed (%d)", (int)err);
		pph_variant_error(why);
	}
}
