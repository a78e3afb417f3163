/* The sum of the elements of x in CUDA: one block. */
#include "../../ode_cuda.h"

__global__ static void sum(double *res, const double *x, int n)
{
	double s = 0.0;
	int i;

	for (i = threadIdx.x; i < n; i += blockDim.x)
		s += x[i];
	s = ode_block_sum(s);
	if (threadIdx.x == 0)
		*res = s;
}

void ode_sum_cuda(double *res, const double *x, int n)
{
	sum<<<1, ODE_GROUP, 0, pph_cuda_stream()>>>(res, x, n);
}
