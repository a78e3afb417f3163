/* sgemm on an OpenCL device: a tiled kernel (../../common/gemm_opencl.h). */
#define REAL float
#define REAL_NAME "float"
#include "../../common/gemm_opencl.h"

void sgemm_ocl(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	/* on an OpenCL worker the pointers are the cl_mem of the data */
	gemm_opencl("sgemm_ocl", m, n, k, alpha, (cl_mem)(void *)A, (cl_mem)(void *)B, beta,
		    (cl_mem)(void *)C);
}
