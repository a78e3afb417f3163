/* sgemm through CBLAS (Debian: libblas-dev; link with -lblas). */
#include <cblas.h>

void sgemm_cblas(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, k, B, n,
		    beta, C, n);
}
