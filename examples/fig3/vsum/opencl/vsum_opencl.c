/* OpenCL variant: pointers are cl_mem values on the worker's device. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void k(__global const float *v, int n, __global float *sum)\n"
	"{ if (get_global_id(0) == 0) { float s = 0; for (int i = 0; i < n; i++) s += v[i]; *sum = s; } }\n";

void vsum_opencl(float *v, int n, float *sum)
{
	cl_kernel k = pph_opencl_kernel_source(source, "k");
	cl_mem mv = (cl_mem)(void *)v, ms = (cl_mem)(void *)sum;
	size_t global = 1;
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	err |= clSetKernelArg(k, 0, sizeof(mv), &mv);
	err |= clSetKernelArg(k, 1, sizeof(n), &n);
	err |= clSetKernelArg(k, 2, sizeof(ms), &ms);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, *sum is as it was: another variant runs the task */
		fprintf(stderr, "vsum_opencl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
