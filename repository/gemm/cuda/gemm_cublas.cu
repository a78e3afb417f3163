/* C = C - A B^T on b x b column-major tiles through cuBLAS. */
#include "../../common/cuda_handles.h"

void gemm_cublas(int b, const double *A, int lda, const double *B, int ldb, double *C,
		 int ldc)
{
	cublasHandle_t h = repo_cublas();
	double minus_one = -1, one = 1;

	if (!h || cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, b, b, b, &minus_one, A, lda, B, ldb, &one,
			      C, ldc) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("gemm_cublas");
}
