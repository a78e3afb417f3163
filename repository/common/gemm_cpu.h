/*
 * C = alpha * A * B + beta * C, row-major, on rows [i0, i1) of C, blocked so
 * that a block of B (GEMM_KB x GEMM_NB) stays in cache while the rows of a
 * block of A stream past it.  REAL is the element type: the including file
 * defines it.  Shared by the blocked (CPU) and OpenMP variants of sgemm and
 * dgemm.
 */
#ifndef GEMM_KB
#define GEMM_KB 128
#define GEMM_NB 512
#endif

static void gemm_rows(int i0, int i1, int n, int k, REAL alpha, const REAL *A,
		      const REAL *B, REAL beta, REAL *C)
{
	int i, j, l, jj, ll;

	/* beta == 0: C is not read (BLAS semantics), so NaNs there do not leak */
	for (i = i0; i < i1; i++)
		for (j = 0; j < n; j++)
			C[(long)i * n + j] = beta == 0 ? 0 : beta * C[(long)i * n + j];
	if (alpha == 0)
		return;
	for (ll = 0; ll < k; ll += GEMM_KB) {
		int lend = ll + GEMM_KB < k ? ll + GEMM_KB : k;

		for (jj = 0; jj < n; jj += GEMM_NB) {
			int jend = jj + GEMM_NB < n ? jj + GEMM_NB : n;

			for (i = i0; i < i1; i++) {
				REAL *c = C + (long)i * n;

				for (l = ll; l < lend; l++) {
					REAL a = alpha * A[(long)i * k + l];
					const REAL *b = B + (long)l * n;

					for (j = jj; j < jend; j++)
						c[j] += a * b[j];
				}
			}
		}
	}
}
