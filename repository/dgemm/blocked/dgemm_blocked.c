/* dgemm on one CPU core: cache-blocked loops (../../common/gemm_cpu.h). */
#define REAL double
#include "../../common/gemm_cpu.h"

void dgemm_blocked(int m, int n, int k, double alpha, const double *A, const double *B, double beta, double *C)
{
	gemm_rows(0, m, n, k, alpha, A, B, beta, C);
}
