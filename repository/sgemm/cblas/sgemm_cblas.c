/* sgemm through CBLAS (Debian: libblas-dev; link with -lblas). */
#include <cblas.h>

void sgemm_cblas(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	/* an empty C: nothing to do (BLAS would reject ldc = n = 0, and its
	 * xerbla exits the process); k = 0 still scales C by beta */
	if (m <= 0 || n <= 0)
		return;
	/* BLAS wants leading dimensions of at least 1, k = 0 included */
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, k > 1 ? k : 1,
		    B, n, beta, C, n);
}
