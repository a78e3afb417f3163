/* lud's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

struct lud_panel_args {
	int k0;
};

void lud_panel_cuda(float *, int, int);

extern "C" void lud_panel_cuda_task(void *b[], void *arg)
{
	struct lud_panel_args *a = (struct lud_panel_args *)arg;

	lud_panel_cuda((float *)PPH_MATRIX_PTR(b[0]), (int)PPH_MATRIX_ROWS(b[0]), a->k0);
}

struct lud_internal_args {
	int k0;
};

void lud_internal_cuda(float *, int, int);

extern "C" void lud_internal_cuda_task(void *b[], void *arg)
{
	struct lud_internal_args *a = (struct lud_internal_args *)arg;

	lud_internal_cuda((float *)PPH_MATRIX_PTR(b[0]), (int)PPH_MATRIX_ROWS(b[0]), a->k0);
}
