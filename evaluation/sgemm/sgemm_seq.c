/* SGEMM's input generator and sequential reference: a triple loop in double. */
#include "../common/eval.h"
#include "sgemm_seq.h"

void sgemm_generate(float *m, int n, unsigned seed)
{
	struct eval_rng r = { seed };
	long i;

	for (i = 0; i < (long)n * n; i++)
		m[i] = (float)eval_uniform(&r) - 0.5f;
}

void sgemm_reference(int n, float alpha, const float *A, const float *B, float beta, float *C)
{
	int i, j, l;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0;

			for (l = 0; l < n; l++)
				s += (double)A[(long)i * n + l] * B[(long)l * n + j];
			C[(long)i * n + j] = (float)(alpha * s + beta * (double)C[(long)i * n + j]);
		}
}
