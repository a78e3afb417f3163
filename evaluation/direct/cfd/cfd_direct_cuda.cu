/* cfd's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

void cfd_step_factor_cuda(const float *, const float *, float *, int, int);

extern "C" void cfd_step_factor_cuda_task(void *b[], void *arg)
{
	(void)arg;
	cfd_step_factor_cuda((const float *)PPH_MATRIX_PTR(b[0]),
			     (const float *)PPH_VECTOR_PTR(b[1]), (float *)PPH_VECTOR_PTR(b[2]),
			     (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]));
}

void cfd_flux_cuda(const float *, const int *, const float *, float *, int, int, int, int);

extern "C" void cfd_flux_cuda_task(void *b[], void *arg)
{
	(void)arg;
	cfd_flux_cuda((const float *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_MATRIX_PTR(b[1]),
		      (const float *)PPH_MATRIX_PTR(b[2]), (float *)PPH_MATRIX_PTR(b[3]),
		      (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_ROWS(b[1]),
		      (int)PPH_MATRIX_ROWS(b[2]), (int)PPH_MATRIX_COLS(b[0]));
}

struct cfd_time_step_args {
	int j;
};

void cfd_time_step_cuda(const float *, float *, const float *, const float *, int, int, int);

extern "C" void cfd_time_step_cuda_task(void *b[], void *arg)
{
	struct cfd_time_step_args *a = (struct cfd_time_step_args *)arg;

	cfd_time_step_cuda((const float *)PPH_MATRIX_PTR(b[0]), (float *)PPH_MATRIX_PTR(b[1]),
			   (const float *)PPH_VECTOR_PTR(b[2]), (const float *)PPH_MATRIX_PTR(b[3]),
			   a->j, (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]));
}
