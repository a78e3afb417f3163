/*
 * Compiled once per type T: *result = hypot(*result, ||x||) on an OpenCL
 * device, result a cl_mem of one double: the partial-result contract of
 * nrm2's reduction.  The squares are summed scaled by the largest |x_i|
 * (reduce_opencl.h), so that they neither overflow nor underflow in T.  In
 * a reduction call, result is the task's own accumulator, a copy on the
 * device set to 0.
 */
#define REDUCE_RESULT double
#include "../../common/nrm2_reduction.h"
#include "../../common/reduce_opencl.h"

void nrm2_ocl(int n, const T *x, double *result)
{
	reduce_opencl("nrm2_ocl", (cl_mem)(void *)x, (cl_mem)(void *)x, n, REDUCE_NORM,
		      (cl_mem)(void *)result);
}
