/* dgemm on an OpenCL device: a tiled kernel (../../common/gemm_opencl.h). */
#define REAL double
#define REAL_NAME "double"
#include "../../common/gemm_opencl.h"

void dgemm_ocl(int m, int n, int k, double alpha, const double *A, const double *B, double beta, double *C)
{
	/* on an OpenCL worker the pointers are the cl_mem of the data */
	gemm_opencl("dgemm_ocl", m, n, k, alpha, (cl_mem)(void *)A, (cl_mem)(void *)B, beta,
		    (cl_mem)(void *)C);
}
