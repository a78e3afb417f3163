/*
 * The host side of the OpenCL spmv, in ComPU's form: the kernel (spmv.cl,
 * built into the program) and the worker's queue come through these
 * globals, which the backend wrapper sets before each call; the pointers
 * are the cl_mem of the data on the worker's device.
 */
#include <stdio.h>

#include <peppher/opencl.h>

extern cl_kernel spmv_kernel;
extern cl_command_queue spmv_queue;

#define LOCAL 64

void spmv_ocl(int m, int n, int nnz, const int *rowptr, const int *colind, const double *val,
	      const double *x, double *y)
{
	cl_mem mem[5] = { (cl_mem)(void *)rowptr, (cl_mem)(void *)colind, (cl_mem)(void *)val,
			  (cl_mem)(void *)x, (cl_mem)(void *)y };
	size_t global = (size_t)(m + LOCAL - 1) / LOCAL * LOCAL, local = LOCAL;
	cl_int err = 0;
	int i;

	(void)n;
	if (m <= 0) /* no rows (a range of 0 work-items is an error) */
		return;
	err |= clSetKernelArg(spmv_kernel, 0, sizeof(m), &m);
	err |= clSetKernelArg(spmv_kernel, 1, sizeof(nnz), &nnz);
	for (i = 0; i < 5; i++)
		err |= clSetKernelArg(spmv_kernel, (cl_uint)(2 + i), sizeof(cl_mem), &mem[i]);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(spmv_queue, spmv_kernel, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "spmv_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
