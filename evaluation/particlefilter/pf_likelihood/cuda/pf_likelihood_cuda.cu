/* Particle filter in CUDA: a thread moves and weighs a particle. */
#include <peppher/cuda.h>

#include "../../pf_common.h"

PF_PARTICLE(static __device__, )

__global__ static void likelihood(const int *frame, double *x, double *y, const double *noise,
				  double *w, int dim, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		pf_particle(frame, x, y, noise, w, dim, n, i);
}

void pf_likelihood_cuda(const int *frame, double *x, double *y, const double *noise, double *w,
			int dim, int n, int n2)
{
	(void)n2;
	likelihood<<<(n + 127) / 128, 128, 0, pph_cuda_stream()>>>(frame, x, y, noise, w, dim, n);
}
