/*
 * Compiled once per type T: *result += x . y on an OpenCL device, result a
 * cl_mem of one T: the partial-result contract of dot's reduction.  In a
 * reduction call, result is the task's own accumulator, a copy on the
 * device set to 0.
 */
#include "../../common/reduce_opencl.h"

void dot_ocl(int n, const T *x, const T *y, T *result)
{
	reduce_opencl("dot_ocl", (cl_mem)(void *)x, (cl_mem)(void *)y, n, REDUCE_DOT,
		      (cl_mem)(void *)result);
}
