/* Compiled once per type T: x = alpha x on an OpenCL device. */
#include "../../common/map_opencl.h"

static const char source[] = MAP_HEADER
	"__kernel void scale(int n, T alpha, __global T *x)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		x[i] *= alpha;\n"
	"}\n";

void scale_ocl(int n, T *x, T alpha)
{
	cl_mem mem[1] = { (cl_mem)(void *)x };

	map_opencl("scale_ocl", source, "scale", n, alpha, 1, mem);
}
