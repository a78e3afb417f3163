/*
 * One launch of a tile kernel (b x b column-major double tiles) for the
 * OpenCL variants of potrf, trsm, syrk and gemm: the kernel takes (b, then
 * the cl_mem of the tiles), over a 1-D or 2-D range of b (x b) work-items,
 * or one work-group when local is not 0.
 */
#include <stdio.h>

#include <peppher/opencl.h>

#define TILE_HEADER                                           \
	"#ifdef cl_khr_fp64\n"                                  \
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"       \
	"#endif\n"                                              \
	"#define AT(M, i, j) M[(i) + (long)(j) * b]\n"

static void tile_opencl(const char *who, const char *source, const char *name, int b,
			unsigned dims, size_t local, unsigned nmem, const cl_mem *mem)
{
	cl_kernel kern = pph_opencl_kernel_source(source, name);
	size_t global[2] = { (size_t)b, (size_t)b };
	cl_int err = 0;
	unsigned i;

	if (b <= 0) /* an empty tile (a range of 0 work-items is an error) */
		return;
	if (!kern) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	if (local) {
		size_t max = 1;

		clGetKernelWorkGroupInfo(kern, pph_opencl_device(), CL_KERNEL_WORK_GROUP_SIZE,
					 sizeof(max), &max, NULL);
		global[0] = local = local < max ? local : max;
	}
	err |= clSetKernelArg(kern, 0, sizeof(b), &b);
	for (i = 0; i < nmem; i++)
		err |= clSetKernelArg(kern, 1 + i, sizeof(cl_mem), &mem[i]);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), kern, dims, NULL, global,
					     local ? &local : NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: kernel launch failed (%d)\n", who, (int)err);
		pph_variant_failed();
	}
}
