/*
 * Compiled once per type T: *result += x . y on an OpenCL device, result a
 * cl_mem of one T.  The partial-result contract of dot's reduction; but the
 * runtime keeps reduction accumulators in host memory and leaves OpenCL
 * variants out of such calls, so this variant runs only when called with
 * result read and written on the device (tests/repository/check.c does),
 * ready for device-side accumulators.
 */
#include "../../common/reduce_opencl.h"

void dot_ocl(int n, const T *x, const T *y, T *result)
{
	reduce_opencl("dot_ocl", (cl_mem)(void *)x, (cl_mem)(void *)y, n, TERMS_XY, ACC_ADD,
		      (cl_mem)(void *)result);
}
