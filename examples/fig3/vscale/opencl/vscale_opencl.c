/* OpenCL variant: pointers are cl_mem values on the worker's device. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void k(__global float *v, int n, float a)\n"
	"{ int i = get_global_id(0); if (i < n) v[i] *= a; }\n";

void vscale_opencl(float *v, int n, float a)
{
	cl_kernel k = pph_opencl_kernel_source(source, "k");
	cl_mem m = (cl_mem)(void *)v;
	size_t global = (size_t)n;
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	if (n <= 0)
		return;
	err |= clSetKernelArg(k, 0, sizeof(m), &m);
	err |= clSetKernelArg(k, 1, sizeof(n), &n);
	err |= clSetKernelArg(k, 2, sizeof(a), &a);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, v is as it was: another variant runs the task */
		fprintf(stderr, "vscale_opencl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
