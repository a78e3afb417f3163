/* Compiled once per type T: *result = x . y on an OpenCL device. */
#include "../../common/reduce_opencl.h"

void dot_ocl(int n, const T *x, const T *y, T *result)
{
	reduce_opencl("dot_ocl", (cl_mem)(void *)x, (cl_mem)(void *)y, n, TERMS_XY, 0,
		      (cl_mem)(void *)result);
}
