/*
 * cholesky: A = L L^T of a symmetric positive definite n x n matrix, tiled
 * right-looking on the repository's tile kernels:
 *
 *	for k: potrf(A_kk); trsm(A_kk, A_ik) for i > k;
 *	       syrk(A_ik, A_ii) and gemm(A_ik, A_jk, A_ij) for i > j > k.
 *
 * The matrix is one pph_matrix, split into tile views (pph_matrix_tile_grid:
 * a grid of sub-handles over its memory, no copy).  Every call returns at
 * once: its tiles are containers, so the runtime runs the calls as a task
 * graph ordered by the tiles they read and write.  The kernels take
 * column-major tiles with a leading dimension: the n x n column-major matrix
 * is a row-major pph_matrix whose rows are its columns, so its tile (i, j)
 * is the view's tile (j, i), with leading dimension n on the host (packed,
 * b, on a device).
 *
 * Usage: cholesky [n [b]] (default 512 64; b divides n).  Checks
 * max |A - L L^T| / max |A| against a bound and prints "correct".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "peppher.h"

/* element (i, j) of the n x n column-major matrix M */
#define AT(M, n, i, j) ((M)[(size_t)(j) * (n) + (i)])

/* A symmetric, diagonally dominant (so positive definite) matrix. */
static void spd(double *A, int n)
{
	unsigned s = 12345;

	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			s = s * 1103515245u + 12345u;
			double x = (double)(s >> 8) / (1u << 24) - 0.5;

			AT(A, n, i, j) = AT(A, n, j, i) = i == j ? n + x : x;
		}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

/*
 * Priorities: the panel (potrf, then trsm) first, then the updates of the
 * next panel's column (k + 1), which the next potrf and trsm wait for;
 * the rest of the trailing matrix fills the gaps.
 */
enum { PRIO_UPDATE, PRIO_NEXT_PANEL, PRIO_TRSM, PRIO_POTRF };

static void cholesky(pph_matrix_tiles *T, int nt, int b, int n)
{
#define TILE(i, j) pph_matrix_tile(T, (j), (i)) /* column-major: see above */
	for (int k = 0; k < nt; k++) {
		pph_call_priority(PRIO_POTRF);
		potrf(b, TILE(k, k), n);
		pph_call_priority(PRIO_TRSM);
		for (int i = k + 1; i < nt; i++)
			trsm(b, TILE(k, k), n, TILE(i, k), n);
		for (int i = k + 1; i < nt; i++) {
			pph_call_priority(i == k + 1 ? PRIO_NEXT_PANEL : PRIO_UPDATE);
			syrk(b, TILE(i, k), n, TILE(i, i), n);
			for (int j = k + 1; j < i; j++) {
				pph_call_priority(j == k + 1 ? PRIO_NEXT_PANEL : PRIO_UPDATE);
				gemm(b, TILE(i, k), n, TILE(j, k), n, TILE(i, j), n);
			}
		}
	}
	pph_call_priority(0);
#undef TILE
}

/* max |A - L L^T| / max |A|, over the lower triangle */
static double residual(const double *A, const double *L, int n)
{
	double err = 0, amax = 0;

	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			double s = 0;

			for (int k = 0; k <= j; k++)
				s += AT(L, n, i, k) * AT(L, n, j, k);
			err = fmax(err, fabs(AT(A, n, i, j) - s));
			amax = fmax(amax, fabs(AT(A, n, i, j)));
		}
	return err / amax;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 512, b = argc > 2 ? atoi(argv[2]) : 64;

	if (n < 1 || b < 1 || n % b) {
		fprintf(stderr, "usage: cholesky [n [b]], b dividing n\n");
		return 2;
	}
	int nt = n / b;
	double *A = malloc(sizeof(double) * n * n), *L = malloc(sizeof(double) * n * n);

	if (!A || !L)
		return 1;
	spd(A, n);
	for (size_t i = 0; i < (size_t)n * n; i++)
		L[i] = A[i];
	PEPPHER_INITIALIZE();
	/* factored in place: L's lower triangle becomes the factor */
	pph_matrix *M = pph_matrix_wrap(L, n, n, sizeof(double));
	pph_matrix_tiles *T = M ? pph_matrix_tile_grid(M, b, b) : NULL;

	if (!T) {
		perror("cholesky: tiles");
		return 1;
	}
	double t0 = now();

	cholesky(T, nt, b, n);
	pph_task_wait_all();
	double t = now() - t0;

	pph_matrix_untile(T); /* the tiles' data home, in M */
	if (!pph_matrix_read(M))
		return 1;
	pph_matrix_destroy(M);
	PEPPHER_SHUTDOWN();
	for (int j = 0; j < n; j++) /* the factor: the lower triangle */
		for (int i = 0; i < j; i++)
			AT(L, n, i, j) = 0.0;

	double r = residual(A, L, n), bound = 1e-14 * n;
	int tasks = nt + nt * (nt - 1) / 2 * 2 + nt * (nt - 1) * (nt - 2) / 6;

	printf("cholesky n %d b %d: %d tasks, %.3f s, %.2f GFLOP/s\n", n, b, tasks, t,
	       n * (double)n * n / 3 / t * 1e-9);
	printf("cholesky n %d b %d: residual %.2e (bound %.1e): %s\n", n, b, r, bound,
	       r <= bound ? "correct" : "WRONG");
	free(A);
	free(L);
	return r <= bound ? 0 : 1;
}
