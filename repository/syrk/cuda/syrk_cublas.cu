/* C = C - A A^T (lower triangle) on b x b column-major tiles through cuBLAS. */
#include "../../common/cuda_handles.h"

void syrk_cublas(int b, const double *A, int lda, double *C, int ldc)
{
	cublasHandle_t h = repo_cublas();
	double minus_one = -1, one = 1;

	if (!h || cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, b, b, &minus_one, A, lda, &one,
			      C, ldc) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("syrk_cublas");
}
