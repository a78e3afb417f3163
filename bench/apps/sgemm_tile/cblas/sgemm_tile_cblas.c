/* C = C + A B on b x b column-major tiles through CBLAS. */
#include <cblas.h>

void sgemm_tile_cblas(int b, const float *A, const float *B, float *C)
{
	cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, b, b, b, 1.0f, A, b, B, b, 1.0f, C, b);
}
