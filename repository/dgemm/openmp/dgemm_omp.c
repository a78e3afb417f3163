/* dgemm on the CPU workers' OpenMP team: blocks of rows of C in parallel. */
#define REAL double
#include "../../common/gemm_cpu.h"

#define ROWS 16 /* rows of C per chunk: enough chunks to balance, each B block reused */

void dgemm_omp(int m, int n, int k, double alpha, const double *A, const double *B, double beta, double *C)
{
	int i;

#pragma omp parallel for schedule(dynamic)
	for (i = 0; i < m; i += ROWS)
		gemm_rows(i, i + ROWS < m ? i + ROWS : m, n, k, alpha, A, B, beta, C);
}
