/* A = A L^-T on b x b column-major tiles through cuBLAS (link with -lcublas). */
#include "../../common/cuda_handles.h"

void trsm_cublas(int b, const double *L, int ldl, double *A, int lda)
{
	cublasHandle_t h = repo_cublas();
	double one = 1;

	if (!h || cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
			      CUBLAS_DIAG_NON_UNIT, b, b, &one, L, ldl, A, lda) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("trsm_cublas");
}
