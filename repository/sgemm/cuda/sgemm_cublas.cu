/*
 * sgemm on a CUDA device through cuBLAS (link with -lcublas).  cuBLAS is
 * column-major: the row-major C = A B is the column-major C^T = B^T A^T, so
 * the operands are passed swapped, without transposing anything.
 */
#include "../../common/cuda_handles.h"

void sgemm_cublas(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	cublasHandle_t h = repo_cublas();

	if (!h || cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, n, A, k, &beta, C,
				n) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("sgemm_cublas");
}
