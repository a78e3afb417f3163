/* C = C - A B^T on b x b column-major tiles through CBLAS. */
#include <cblas.h>

void gemm_cblas(int b, const double *A, const double *B, double *C)
{
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, b, b, b, -1.0, A, b, B, b, 1.0, C, b);
}
