/*
 * Compiled once per type T: *result = hypot(*result, ||x||) on an OpenCL
 * device, result a cl_mem of one double; the squares are summed in T,
 * unscaled (in float they overflow beyond |x_i| of about 1e19).  The
 * partial-result contract of nrm2's reduction; but the runtime keeps
 * reduction accumulators in host memory and leaves OpenCL variants out of
 * such calls, so this variant runs only when called with result read and
 * written on the device (tests/repository/check.c does).
 */
#define REDUCE_RESULT double
#include "../../common/nrm2_reduction.h"
#include "../../common/reduce_opencl.h"

void nrm2_ocl(int n, const T *x, double *result)
{
	reduce_opencl("nrm2_ocl", (cl_mem)(void *)x, (cl_mem)(void *)x, n, TERMS_XX, ACC_HYPOT,
		      (cl_mem)(void *)result);
}
