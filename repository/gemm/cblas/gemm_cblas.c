/* C = C - A B^T on b x b column-major tiles through CBLAS. */
#include <cblas.h>

void gemm_cblas(int b, const double *A, int lda, const double *B, int ldb, double *C,
		int ldc)
{
	/* an empty tile: nothing to do (BLAS would reject leading dimensions of 0,
	 * and its xerbla exits the process) */
	if (b <= 0)
		return;
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, b, b, b, -1.0, A, lda, B, ldb, 1.0, C,
		    ldc);
}
