/* What the ODE solver's CUDA variants share: the launch shape of an
 * element-wise kernel, and the sum of one value per thread of a block of
 * ODE_GROUP threads. */
#ifndef ODE_CUDA_H
#define ODE_CUDA_H

#include <peppher/cuda.h>

#define ODE_GROUP 256
#define ODE_GRID(n) ((n) + 127) / 128, 128, 0, pph_cuda_stream()

__device__ static inline double ode_block_sum(double s)
{
	__shared__ double part[ODE_GROUP];
	int t = threadIdx.x, k;

	part[t] = s;
	for (k = ODE_GROUP / 2; k > 0; k /= 2) {
		__syncthreads();
		if (t < k)
			part[t] += part[t + k];
	}
	__syncthreads();
	return part[0];
}

#endif
