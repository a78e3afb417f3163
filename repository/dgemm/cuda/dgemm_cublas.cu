/*
 * dgemm on a CUDA device through cuBLAS (link with -lcublas).  cuBLAS is
 * column-major: the row-major C = A B is the column-major C^T = B^T A^T, so
 * the operands are passed swapped, without transposing anything.
 */
#include "../../common/cuda_handles.h"

void dgemm_cublas(int m, int n, int k, double alpha, const double *A, const double *B, double beta, double *C)
{
	cublasHandle_t h = repo_cublas();

	if (!h || cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, n, A, k, &beta, C,
				n) != CUBLAS_STATUS_SUCCESS)
		repo_cuda_failed("dgemm_cublas");
}
