/* The Cholesky factor of a b x b column-major tile through cuSOLVER (link with -lcusolver). */
#include "../../common/cuda_handles.h"

void potrf_cusolver(int b, double *A, int lda)
{
	cusolverDnHandle_t h = repo_cusolver();
	double *work = NULL;
	int lwork = 0, *info = NULL, ok;

	ok = h &&
	     cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, b, A, lda, &lwork) ==
		     CUSOLVER_STATUS_SUCCESS &&
	     cudaMalloc((void **)&work, sizeof(double) * (size_t)(lwork > 0 ? lwork : 1)) ==
		     cudaSuccess &&
	     cudaMalloc((void **)&info, sizeof(int)) == cudaSuccess &&
	     cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, b, A, lda, work, lwork, info) ==
		     CUSOLVER_STATUS_SUCCESS;
	cudaStreamSynchronize(pph_cuda_stream()); /* before work is freed */
	cudaFree(info);
	cudaFree(work);
	if (!ok)
		repo_cuda_failed("potrf_cusolver");
}
