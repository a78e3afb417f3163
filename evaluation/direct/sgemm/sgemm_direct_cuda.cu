/* sgemm's CUDA variant called from its task (compiled by nvcc: C++). */
#include <peppher/runtime.h>

struct sgemm_args {
	int m, n, k;
	float alpha, beta;
};

void sgemm_cublas(int, int, int, float, const float *, const float *, float, float *);

extern "C" void sgemm_cuda_task(void *b[], void *arg)
{
	struct sgemm_args *a = (struct sgemm_args *)arg;

	sgemm_cublas(a->m, a->n, a->k, a->alpha, (const float *)PPH_MATRIX_PTR(b[0]),
		     (const float *)PPH_MATRIX_PTR(b[1]), a->beta, (float *)PPH_MATRIX_PTR(b[2]));
}
