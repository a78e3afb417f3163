/* CFD fluxes in CUDA: a thread per element. */
#include <peppher/cuda.h>

#include "../../cfd_elem.h"

CFD_ELEM(static __device__, , sqrtf)

__global__ static void flux(const float *vars, const int *nbs, const float *normals,
			   float *fluxes, int nel)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < nel)
		cfd_flux_elem(vars, nbs, normals, fluxes, i, nel);
}

void cfd_flux_cuda(const float *vars, const int *nbs, const float *normals, float *fluxes,
		   int nvar, int nnb, int nnrm, int nel)
{
	(void)nvar, (void)nnb, (void)nnrm;
	flux<<<(nel + 127) / 128, 128, 0, pph_cuda_stream()>>>(vars, nbs, normals, fluxes, nel);
}
