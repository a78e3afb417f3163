/*
 * cholesky: A = L L^T of a symmetric positive definite n x n matrix, tiled
 * right-looking on the repository's tile kernels:
 *
 *	for k: potrf(A_kk); trsm(A_kk, A_ik) for i > k;
 *	       syrk(A_ik, A_ii) and gemm(A_ik, A_jk, A_ij) for i > j > k.
 *
 * Every call returns at once: its tiles are containers, so the runtime runs
 * the calls as a task graph ordered by the tiles they read and write.  Each
 * tile is a b x b container of its own, column-major (the kernels' layout).
 * The next step is tile views of one pph_matrix (a grid of sub-handles), so
 * that the matrix stays in one piece and is not copied into tiles and back.
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

/* The tiles (i, j), i >= j, of A: copied out of it into containers. */
static pph_matrix **tiles_create(const double *A, int n, int b)
{
	int nt = n / b;
	pph_matrix **T = calloc((size_t)nt * nt, sizeof(*T));

	for (int j = 0; T && j < nt; j++)
		for (int i = j; i < nt; i++) {
			pph_matrix *t = pph_matrix_create_double(b, b);
			double *d = t ? pph_matrix_write(t) : NULL;

			if (!d) {
				perror("cholesky: tile");
				exit(1);
			}
			for (int c = 0; c < b; c++)
				for (int r = 0; r < b; r++)
					d[r + c * b] = AT(A, n, i * b + r, j * b + c);
			T[i + j * nt] = t;
		}
	return T;
}

/* L (lower triangle of the tiles) copied back into the n x n matrix L. */
static void tiles_gather(pph_matrix **T, double *L, int n, int b)
{
	int nt = n / b;

	for (int j = 0; j < nt; j++)
		for (int i = j; i < nt; i++) {
			const double *d = pph_matrix_read(T[i + j * nt]);

			for (int c = 0; c < b; c++)
				for (int r = 0; r < b; r++)
					AT(L, n, i * b + r, j * b + c) =
						(i > j || r >= c) ? d[r + c * b] : 0.0;
		}
}

/*
 * Priorities: the panel (potrf, then trsm) first, then the updates of the
 * next panel's column (k + 1), which the next potrf and trsm wait for;
 * the rest of the trailing matrix fills the gaps.
 */
enum { PRIO_UPDATE, PRIO_NEXT_PANEL, PRIO_TRSM, PRIO_POTRF };

static void cholesky(pph_matrix **T, int nt, int b)
{
#define TILE(i, j) T[(i) + (j) * nt]
	for (int k = 0; k < nt; k++) {
		pph_call_priority(PRIO_POTRF);
		potrf(b, TILE(k, k));
		pph_call_priority(PRIO_TRSM);
		for (int i = k + 1; i < nt; i++)
			trsm(b, TILE(k, k), TILE(i, k));
		for (int i = k + 1; i < nt; i++) {
			pph_call_priority(i == k + 1 ? PRIO_NEXT_PANEL : PRIO_UPDATE);
			syrk(b, TILE(i, k), TILE(i, i));
			for (int j = k + 1; j < i; j++) {
				pph_call_priority(j == k + 1 ? PRIO_NEXT_PANEL : PRIO_UPDATE);
				gemm(b, TILE(i, k), TILE(j, k), TILE(i, j));
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
	PEPPHER_INITIALIZE();
	pph_matrix **T = tiles_create(A, n, b);

	if (!T)
		return 1;
	double t0 = now();

	cholesky(T, nt, b);
	pph_task_wait_all();
	double t = now() - t0;

	tiles_gather(T, L, n, b);
	for (int i = 0; i < nt * nt; i++)
		pph_matrix_destroy(T[i]);
	free(T);
	PEPPHER_SHUTDOWN();

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
