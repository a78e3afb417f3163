/*
 * Compiled once per type T: a bitonic sorting network on the device.  The
 * network sorts N = the next power of two >= n elements, the ones past n
 * being virtually +infinity.  Every compare-exchange puts the smaller
 * element at the lower index (the first step of each merge compares
 * mirror positions instead of flipping the direction), so a pair whose
 * upper element is past n never exchanges and is skipped: nothing is
 * padded.  One launch per step, log2(N) (log2(N) + 1) / 2 launches.
 */
#include <stdio.h>

#include <peppher/opencl.h>

#include "../../common/sort_sizes.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char source[] =
	"#ifdef cl_khr_fp64\n"
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#endif\n"
	"#define T " STR(T) "\n"
	"__kernel void bitonic_step(__global T *v, int n, int j, int mirror)\n"
	"{\n"
	"	long i = get_global_id(0);\n" /* long: 2 j is 2^31 in a network of 2^31 */
	"	long lo = i / j * 2 * j + i % j;\n"
	"	long hi = mirror ? lo + 2 * (j - lo % j) - 1 : lo + j;\n"
	"	if (hi < n) {\n"
	"		T a = v[lo], b = v[hi];\n"
	"		if (b < a) {\n"
	"			v[lo] = b;\n"
	"			v[hi] = a;\n"
	"		}\n"
	"	}\n"
	"}\n";

static int step(cl_kernel kern, cl_mem v, int n, int j, int mirror, size_t pairs)
{
	cl_int err = 0;

	err |= clSetKernelArg(kern, 0, sizeof(v), &v);
	err |= clSetKernelArg(kern, 1, sizeof(n), &n);
	err |= clSetKernelArg(kern, 2, sizeof(j), &j);
	err |= clSetKernelArg(kern, 3, sizeof(mirror), &mirror);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), kern, 1, NULL, &pairs, NULL, 0,
					     NULL, NULL);
	return err;
}

void sort_ocl(T *v, int n)
{
	cl_kernel kern = pph_opencl_kernel_source(source, "bitonic_step");
	cl_mem mem = (cl_mem)(void *)v;
	size_t N = sort_pow2_at_least(n), k; /* 2^31 for n past 2^30 */
	int j; /* at most N / 2 */
	cl_int err = CL_SUCCESS;

	if (n <= 1) /* nothing to sort */
		return;
	if (!kern) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	for (k = 2; k <= N && err == CL_SUCCESS; k *= 2) {
		err = step(kern, mem, n, (int)(k / 2), 1, N / 2);
		for (j = (int)(k / 4); j > 0 && err == CL_SUCCESS; j /= 2)
			err = step(kern, mem, n, j, 0, N / 2);
	}
	if (err != CL_SUCCESS) {
		fprintf(stderr, "sort_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
