/* Compiled once per type T: *result = sqrt(x . x) on an OpenCL device. */
#include "../../common/reduce_opencl.h"

void nrm2_ocl(int n, const T *x, T *result)
{
	reduce_opencl("nrm2_ocl", (cl_mem)(void *)x, (cl_mem)(void *)x, n, TERMS_XX, 1,
		      (cl_mem)(void *)result);
}
