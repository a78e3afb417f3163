/* sgemm on one CPU core: cache-blocked loops (../../common/gemm_cpu.h). */
#define REAL float
#include "../../common/gemm_cpu.h"

void sgemm_blocked(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	gemm_rows(0, m, n, k, alpha, A, B, beta, C);
}
