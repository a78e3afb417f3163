/*
 * The machine's noise, for the evaluation page (evaluate.sh): a plain
 * OpenMP loop, without PEPPHER, 8 products of 256 x 256 floats; prints its
 * milliseconds.  evaluate.sh runs it in several processes, since on a
 * shared machine a whole process can be faster than the next: a team of 2
 * ran the evaluation's SGEMM at 256 in 1.2 ms a call in one process and
 * 1.8 ms in another.  The thread count is OMP_NUM_THREADS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 256
#define PRODUCTS 8

int main(void)
{
	float *a = malloc(sizeof(float) * N * N), *b = malloc(sizeof(float) * N * N);
	float *c = calloc(N * N, sizeof(float));
	double t;
	int i, r;

	if (!a || !b || !c)
		return 1;
	for (i = 0; i < N * N; i++) {
		a[i] = (float)(i % 7);
		b[i] = (float)(i % 5);
	}
	t = omp_get_wtime();
	for (r = 0; r < PRODUCTS; r++) {
#pragma omp parallel for
		for (i = 0; i < N; i++) {
			int j, k;

			for (k = 0; k < N; k++) {
				float aik = a[i * N + k];

				for (j = 0; j < N; j++)
					c[i * N + j] += aik * b[k * N + j];
			}
		}
	}
	t = omp_get_wtime() - t;
	/* c is printed from, so that the products are not left out */
	printf("%.1f %g\n", t * 1e3, (double)c[N + 1]);
	free(a);
	free(b);
	free(c);
	return 0;
}
