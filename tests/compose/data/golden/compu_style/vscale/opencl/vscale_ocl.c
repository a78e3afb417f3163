/*
 * The host side of an OpenCL variant in ComPU's form: the kernel (from
 * vscale.cl, built into the program) and the worker's queue come through
 * these globals, which the backend wrapper sets before each call.  arr is
 * the cl_mem of the data on the worker's device.
 */
#include <stdio.h>

#include <peppher/opencl.h>

extern cl_kernel vscale_kernel;
extern cl_command_queue vscale_queue;
extern struct starpu_opencl_program vscale_program;

void vscale_ocl(float *arr, int size, float factor)
{
	cl_mem mem = (cl_mem)(void *)arr;
	size_t global = (size_t)size;

	clSetKernelArg(vscale_kernel, 0, sizeof(mem), &mem);
	clSetKernelArg(vscale_kernel, 1, sizeof(size), &size);
	clSetKernelArg(vscale_kernel, 2, sizeof(factor), &factor);
	if (clEnqueueNDRangeKernel(vscale_queue, vscale_kernel, 1, NULL, &global, NULL, 0,
				   NULL, NULL) != CL_SUCCESS)
		fprintf(stderr, "vscale_ocl: kernel launch failed\n");
}
