/* dgemm through CBLAS (Debian: libblas-dev; link with -lblas). */
#include <cblas.h>

void dgemm_cblas(int m, int n, int k, double alpha, const double *A, const double *B, double beta, double *C)
{
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, k, B, n,
		    beta, C, n);
}
