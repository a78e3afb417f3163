/* One block on the OpenCL device: y and x are cl_mem values. */
#include <peppher/opencl.h>

static const char *const source =
	"__kernel void saxpy(__global float *y, __global const float *x, int n, float a)\n"
	"{ int i = get_global_id(0); if (i < n) y[i] += a * x[i]; }\n";

void saxpy_opencl(float *y, const float *x, int n, float a)
{
	cl_kernel k = pph_opencl_kernel_source(source, "saxpy");
	cl_mem my = (cl_mem)(void *)y, mx = (cl_mem)(const void *)x;
	size_t global = (size_t)n;

	if (!k || n <= 0)
		return;
	clSetKernelArg(k, 0, sizeof(my), &my);
	clSetKernelArg(k, 1, sizeof(mx), &mx);
	clSetKernelArg(k, 2, sizeof(n), &n);
	clSetKernelArg(k, 3, sizeof(a), &a);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}
