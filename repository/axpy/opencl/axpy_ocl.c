/* Compiled once per type T: y = alpha x + y on an OpenCL device. */
#include "../../common/map_opencl.h"

static const char source[] = MAP_HEADER
	"__kernel void axpy(int n, T alpha, __global const T *x, __global T *y)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		y[i] += alpha * x[i];\n"
	"}\n";

void axpy_ocl(int n, const T *x, T *y, T alpha)
{
	cl_mem mem[2] = { (cl_mem)(void *)x, (cl_mem)(void *)y };

	map_opencl("axpy_ocl", source, "axpy", n, alpha, 2, mem);
}
