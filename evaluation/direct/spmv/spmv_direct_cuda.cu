/* spmv's CUDA variant called from its task (compiled by nvcc: C++). */
#include <peppher/runtime.h>

struct spmv_args {
	int m, n, nnz;
};

void spmv_cusparse(int, int, int, const int *, const int *, const double *, const double *,
		   double *);

extern "C" void spmv_cuda_task(void *b[], void *arg)
{
	struct spmv_args *a = (struct spmv_args *)arg;

	spmv_cusparse(a->m, a->n, a->nnz, (const int *)PPH_VECTOR_PTR(b[0]),
		      (const int *)PPH_VECTOR_PTR(b[1]), (const double *)PPH_VECTOR_PTR(b[2]),
		      (const double *)PPH_VECTOR_PTR(b[3]), (double *)PPH_VECTOR_PTR(b[4]));
}
