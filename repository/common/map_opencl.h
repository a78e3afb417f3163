/*
 * One launch of an element-wise kernel over n elements, for the OpenCL
 * variants of axpy and scale (compiled once per type T): the kernel takes
 * (n, alpha, then the cl_mem arguments).
 */
#include <stdio.h>

#include <peppher/opencl.h>

#define MAP_STR_(x) #x
#define MAP_STR(x) MAP_STR_(x)
#define MAP_HEADER                                            \
	"#ifdef cl_khr_fp64\n"                                  \
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"       \
	"#endif\n"                                              \
	"#define T " MAP_STR(T) "\n"

static void map_opencl(const char *who, const char *source, const char *name, int n, T alpha,
		       unsigned nmem, const cl_mem *mem)
{
	cl_kernel kern = pph_opencl_kernel_source(source, name);
	size_t global;
	cl_int err = 0;
	unsigned i;

	if (n <= 0) /* nothing to do, as on the CPU (a range of 0 work-items is an error) */
		return;
	global = (size_t)n;
	if (!kern) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	err |= clSetKernelArg(kern, 0, sizeof(n), &n);
	err |= clSetKernelArg(kern, 1, sizeof(alpha), &alpha);
	for (i = 0; i < nmem; i++)
		err |= clSetKernelArg(kern, 2 + i, sizeof(cl_mem), &mem[i]);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), kern, 1, NULL, &global, NULL, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: kernel launch failed (%d)\n", who, (int)err);
		pph_variant_failed();
	}
}
