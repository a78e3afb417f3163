/* The LUD trailing update in OpenCL: a work-item per element, 16 x 16
 * work-groups. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void internal(__global float *A, int n, int k0)\n"
	"{\n"
	"	int end = k0 + 16, i = end + get_global_id(1), j = end + get_global_id(0), p;\n"
	"	float s = 0.0f;\n"
	"	if (i >= n || j >= n)\n"
	"		return;\n"
	"	for (p = k0; p < end; p++)\n"
	"		s += A[i * n + p] * A[p * n + j];\n"
	"	A[i * n + j] -= s;\n"
	"}\n";

void lud_internal_ocl(float *A, int n, int k0)
{
	cl_kernel k = pph_opencl_kernel_source(source, "internal");
	cl_mem a = (cl_mem)(void *)A;
	size_t side = ((size_t)(n - k0 - 16) + 15) / 16 * 16;
	size_t global[2] = { side, side }, local[2] = { 16, 16 };
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	err |= clSetKernelArg(k, 0, sizeof(a), &a);
	err |= clSetKernelArg(k, 1, sizeof(n), &n);
	err |= clSetKernelArg(k, 2, sizeof(k0), &k0);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 2, NULL, global, local, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, A is as it was: another variant runs the update */
		fprintf(stderr, "lud_internal_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
