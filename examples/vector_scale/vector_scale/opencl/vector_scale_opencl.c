/*
 * The OpenCL variant.  As every OpenCL variant (see peppher/opencl.h), it
 * receives the cl_mem of x on the worker's device in place of the pointer,
 * and enqueues its kernel on the worker's queue.
 */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void scale(__global float *x, int n, float factor, float offset)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		x[i] = factor * x[i] + offset;\n"
	"}\n";

void vector_scale_opencl(float *x, int n, float factor, float offset)
{
	cl_kernel k = pph_opencl_kernel_source(source, "scale");
	cl_mem mem = (cl_mem)(void *)x;
	size_t global = (size_t)n;
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	if (n <= 0)
		return;
	err |= clSetKernelArg(k, 0, sizeof(mem), &mem);
	err |= clSetKernelArg(k, 1, sizeof(n), &n);
	err |= clSetKernelArg(k, 2, sizeof(factor), &factor);
	err |= clSetKernelArg(k, 3, sizeof(offset), &offset);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, x is as it was: another variant runs the task */
		fprintf(stderr, "vector_scale_opencl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
