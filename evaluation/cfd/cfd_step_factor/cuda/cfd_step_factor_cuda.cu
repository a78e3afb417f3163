/* CFD step factors in CUDA: a thread per element. */
#include <peppher/cuda.h>

#include "../../cfd_elem.h"

CFD_ELEM(static __device__, , sqrtf)

__global__ static void step_factor(const float *vars, const float *areas, float *sf, int nel)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < nel)
		cfd_step_factor_elem(vars, areas, sf, i, nel);
}

void cfd_step_factor_cuda(const float *vars, const float *areas, float *sf, int nvar, int nel)
{
	(void)nvar;
	step_factor<<<(nel + 127) / 128, 128, 0, pph_cuda_stream()>>>(vars, areas, sf, nel);
}
