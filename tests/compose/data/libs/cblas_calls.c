/*
 * BLAS's functions on real data: built once as a plain program (-DDIRECT)
 * and once in the tree compose --generate-comp-files made from cblas.h,
 * where every call goes through PEPPHER.  Both print the same lines: the
 * results' bits, not rounded decimals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

enum { M = 96, N = 64, K = 80, LEN = 10000 };

/* FNV-1a over the floats' bytes */
static uint64_t digest(const float *v, size_t n)
{
	const unsigned char *b = (const unsigned char *)v;
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n * sizeof(*v); i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void fill(float *v, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		v[i] = (float)(seed >> 8) / (float)(1u << 24) - 0.5f;
	}
}

int main(void)
{
	static float A[M * K], B[K * N], C[M * N], x[LEN], y[LEN];
	float dot;

	PEPPHER_INITIALIZE();
	fill(A, M * K, 1);
	fill(B, K * N, 2);
	fill(C, M * N, 3);
	fill(x, LEN, 4);
	fill(y, LEN, 5);
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.5f, A, K, B, N, 0.5f, C, N);
	printf("sgemm row major: %016llx\n", (unsigned long long)digest(C, M * N));
	cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, M, B, K, 1.0f, C, M);
	printf("sgemm column major: %016llx\n", (unsigned long long)digest(C, M * N));
	cblas_saxpy(LEN, 0.25f, x, 1, y, 1);
	printf("saxpy: %016llx\n", (unsigned long long)digest(y, LEN));
	dot = cblas_sdot(LEN, x, 1, y, 1);
	printf("sdot: %a\n", dot);
	/* strided, one backwards (BLAS then reads x from its far end) */
	cblas_saxpy(LEN / 3, -0.5f, x, 3, y, 2);
	printf("saxpy strided: %016llx\n", (unsigned long long)digest(y, LEN));
	dot = cblas_sdot(LEN / 2, x, -2, y, 2);
	printf("sdot backwards: %a\n", dot);
	cblas_sgemv(CblasRowMajor, CblasNoTrans, M, K, 1.0f, A, K, x, 2, 0.25f, y, 3);
	printf("sgemv strided: %016llx\n", (unsigned long long)digest(y, LEN));
	PEPPHER_SHUTDOWN();
	return 0;
}
