/* A = A L^-T on b x b column-major tiles through CBLAS (link with -lblas). */
#include <cblas.h>

void trsm_cblas(int b, const double *L, int ldl, double *A, int lda)
{
	/* an empty tile: nothing to do (BLAS would reject leading dimensions of 0,
	 * and its xerbla exits the process) */
	if (b <= 0)
		return;
	cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, b, b, 1.0, L,
		    ldl, A, lda);
}
