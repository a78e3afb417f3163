/* particlefilter's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

void pf_likelihood_cuda(const int *, double *, double *, const double *, double *, int, int, int);

extern "C" void pf_likelihood_cuda_task(void *b[], void *arg)
{
	(void)arg;
	pf_likelihood_cuda((const int *)PPH_MATRIX_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
			   (double *)PPH_VECTOR_PTR(b[2]), (const double *)PPH_VECTOR_PTR(b[3]),
			   (double *)PPH_VECTOR_PTR(b[4]), (int)PPH_MATRIX_ROWS(b[0]),
			   (int)PPH_VECTOR_N(b[1]), (int)PPH_VECTOR_N(b[3]));
}

struct pf_resample_args {
	double u1;
};

void pf_resample_cuda(const double *, const double *, double *, double *, double *, double *,
		      double *, int, double);

extern "C" void pf_resample_cuda_task(void *b[], void *arg)
{
	struct pf_resample_args *a = (struct pf_resample_args *)arg;

	pf_resample_cuda((const double *)PPH_VECTOR_PTR(b[0]), (const double *)PPH_VECTOR_PTR(b[1]),
			 (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),
			 (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VARIABLE_PTR(b[5]),
			 (double *)PPH_VARIABLE_PTR(b[6]), (int)PPH_VECTOR_N(b[0]), a->u1);
}
