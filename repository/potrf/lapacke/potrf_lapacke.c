/* The Cholesky factor of a b x b column-major tile (leading dimension lda) through LAPACKE (link with -llapacke). */
#include <stdio.h>

#include <lapacke.h>

void potrf_lapacke(int b, double *A, int lda)
{
	lapack_int info;

	if (b <= 0) /* an empty tile: LAPACK would reject its leading dimension of 0 */
		return;
	info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', b, A, lda);
	if (info != 0)
		fprintf(stderr, "potrf_lapacke: dpotrf info %d (tile not positive definite)\n",
			(int)info);
}
