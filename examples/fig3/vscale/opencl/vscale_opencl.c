/* OpenCL variant: pointers are cl_mem values on the worker's device. */
#include <peppher/opencl.h>

static const char *const source =
	"__kernel void k(__global float *v, int n, float a)\n"
	"{ int i = get_global_id(0); if (i < n) v[i] *= a; }\n";

void vscale_opencl(float *v, int n, float a)
{
	cl_kernel k = pph_opencl_kernel_source(source, "k");
	cl_mem m = (cl_mem)(void *)v;
	size_t global = (size_t)n;

	if (!k || n <= 0)
		return;
	clSetKernelArg(k, 0, sizeof(m), &m);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(a), &a);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}
