/* OpenCL variant: pointers are cl_mem values on the worker's device. */
#include <peppher/opencl.h>

static const char *const source =
	"__kernel void k(__global const float *v, int n, __global float *sum)\n"
	"{ if (get_global_id(0) == 0) { float s = 0; for (int i = 0; i < n; i++) s += v[i]; *sum = s; } }\n";

void vsum_opencl(float *v, int n, float *sum)
{
	cl_kernel k = pph_opencl_kernel_source(source, "k");
	cl_mem mv = (cl_mem)(void *)v, ms = (cl_mem)(void *)sum;
	size_t global = 1;

	if (!k)
		return;
	clSetKernelArg(k, 0, sizeof(mv), &mv);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(ms), &ms);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}
