/* hotspot's CUDA variant called from its task (compiled by nvcc: C++). */
#include <peppher/runtime.h>

struct hotspot_args {
	float sdc, rx1, ry1, rz1;
};

void hotspot_cuda(const float *, const float *, float *, int, int, float, float, float, float);

extern "C" void hotspot_cuda_task(void *b[], void *arg)
{
	struct hotspot_args *a = (struct hotspot_args *)arg;

	hotspot_cuda((const float *)PPH_MATRIX_PTR(b[0]), (const float *)PPH_MATRIX_PTR(b[1]),
		     (float *)PPH_MATRIX_PTR(b[2]), (int)PPH_MATRIX_ROWS(b[0]),
		     (int)PPH_MATRIX_COLS(b[0]), a->sdc, a->rx1, a->ry1, a->rz1);
}
