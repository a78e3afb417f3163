/* C = C - A A^T (lower triangle) on b x b column-major tiles through CBLAS. */
#include <cblas.h>

void syrk_cblas(int b, const double *A, int lda, double *C, int ldc)
{
	/* an empty tile: nothing to do (BLAS would reject leading dimensions of 0,
	 * and its xerbla exits the process) */
	if (b <= 0)
		return;
	cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, b, b, -1.0, A, lda, 1.0, C, ldc);
}
