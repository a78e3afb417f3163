/* A CFD Runge-Kutta stage in CUDA: a thread per element. */
#include <peppher/cuda.h>

#include "../../cfd_elem.h"

CFD_ELEM(static __device__, , sqrtf)

__global__ static void time_step(const float *old, float *vars, const float *sf,
				 const float *fluxes, int j, int nel)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < nel)
		cfd_time_step_elem(old, vars, sf, fluxes, j, i, nel);
}

void cfd_time_step_cuda(const float *old, float *vars, const float *sf, const float *fluxes,
			int j, int nvar, int nel)
{
	(void)nvar;
	time_step<<<(nel + 127) / 128, 128, 0, pph_cuda_stream()>>>(old, vars, sf, fluxes, j, nel);
}
