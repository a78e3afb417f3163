/*
 * sgemm: C = alpha A B + beta C (row-major, float) through the repository's
 * sgemm component, called several times on the same sizes: the scheduler
 * first tries every variant (blocked loops, CBLAS, OpenMP, OpenCL), then
 * keeps to the one its history says finishes first.  Every result is
 * checked against a sequential triple loop in double.
 *
 * Usage: sgemm [m n k [calls]] (default 300 257 190, 8 calls).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peppher.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static float *random_matrix(int rows, int cols, unsigned seed)
{
	float *M = malloc(sizeof(float) * rows * cols);

	for (int i = 0; M && i < rows * cols; i++) {
		seed = seed * 1103515245u + 12345u;
		M[i] = (float)(seed >> 8) / (1u << 24) - 0.5f;
	}
	return M;
}

/* the largest error of C against alpha A B + beta C0, relative to the
   size of the terms (k products of elements of at most 1/2) */
static double error(int m, int n, int k, float alpha, const float *A, const float *B,
		    float beta, const float *C0, const float *C)
{
	double worst = 0;

	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;

			for (int l = 0; l < k; l++)
				s += (double)A[i * k + l] * B[l * n + j];
			s = alpha * s + beta * (double)C0[i * n + j];
			worst = fmax(worst, fabs(s - C[i * n + j]));
		}
	return worst / (k * 0.25 * fabs(alpha) + fabs(beta));
}

int main(int argc, char **argv)
{
	int m = 300, n = 257, k = 190, calls = 8, bad = 0;

	if (argc >= 4) {
		m = atoi(argv[1]);
		n = atoi(argv[2]);
		k = atoi(argv[3]);
	}
	if (argc >= 5)
		calls = atoi(argv[4]);
	if (m < 1 || n < 1 || k < 1 || calls < 1) {
		fprintf(stderr, "usage: sgemm [m n k [calls]]\n");
		return 2;
	}
	float *A = random_matrix(m, k, 1), *B = random_matrix(k, n, 2);
	float *C0 = random_matrix(m, n, 3), *C = malloc(sizeof(float) * m * n);

	if (!A || !B || !C0 || !C)
		return 1;
	PEPPHER_INITIALIZE();
	for (int c = 0; c < calls; c++) {
		float alpha = 1.0f + c, beta = c % 2 ? 0.5f : 0.0f;
		double t0 = now(), e;

		memcpy(C, C0, sizeof(float) * m * n);
		sgemm(m, n, k, alpha, A, B, beta, C);
		t0 = now() - t0;
		e = error(m, n, k, alpha, A, B, beta, C0, C);
		bad += !(e <= 1e-5 * sqrt(k));
		printf("call %d: %.2f ms, %.2f GFLOP/s, error %.1e\n", c, t0 * 1e3,
		       2.0 * m * n * k / t0 * 1e-9, e);
	}
	PEPPHER_SHUTDOWN();
	printf("sgemm: %d calls, m %d n %d k %d: %s\n", calls, m, n, k, bad ? "WRONG" : "correct");
	free(A);
	free(B);
	free(C0);
	free(C);
	return bad != 0;
}
