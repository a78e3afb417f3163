/* LUD's input generator and sequential reference. */
#include "../common/eval.h"
#include "lud_seq.h"

void lud_generate(float *A, int n)
{
	struct eval_rng r = { 11 };
	int i;

	for (i = 0; i < n * n; i++)
		A[i] = (float)eval_uniform(&r) + (i / n == i % n ? (float)n : 0.0f);
}

void lud_reference(float *A, int n)
{
	int i, j, k;

	for (k = 0; k < n; k++)
		for (i = k + 1; i < n; i++) {
			A[i * n + k] /= A[k * n + k];
			for (j = k + 1; j < n; j++)
				A[i * n + j] -= A[i * n + k] * A[k * n + j];
		}
}
