/* C = C - A B^T on b x b column-major tiles through cuBLAS. */
#include "../../common/cuda_handles.h"

void gemm_cublas(int b, const double *A, const double *B, double *C)
{
	cublasHandle_t h = repo_cublas();
	double minus_one = -1, one = 1;

	if (!h || cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, b, b, b, &minus_one, A, b, B, b, &one,
			      C, b) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("gemm_cublas");
}
