/* A = A L^-T on b x b column-major tiles through CBLAS (link with -lblas). */
#include <cblas.h>

void trsm_cblas(int b, const double *L, int ldl, double *A, int lda)
{
	cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, b, b, 1.0, L,
		    ldl, A, lda);
}
