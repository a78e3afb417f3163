/* One block on the OpenCL device: y and x are cl_mem values. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void saxpy(__global float *y, __global const float *x, int n, float a)\n"
	"{ int i = get_global_id(0); if (i < n) y[i] += a * x[i]; }\n";

void saxpy_opencl(float *y, const float *x, int n, float a)
{
	cl_kernel k = pph_opencl_kernel_source(source, "saxpy");
	cl_mem my = (cl_mem)(void *)y, mx = (cl_mem)(const void *)x;
	size_t global = (size_t)n;
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	if (n <= 0)
		return;
	err |= clSetKernelArg(k, 0, sizeof(my), &my);
	err |= clSetKernelArg(k, 1, sizeof(mx), &mx);
	err |= clSetKernelArg(k, 2, sizeof(n), &n);
	err |= clSetKernelArg(k, 3, sizeof(a), &a);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, y is as it was: another variant runs the task */
		fprintf(stderr, "saxpy_opencl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
