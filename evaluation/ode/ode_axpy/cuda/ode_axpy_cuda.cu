/* z = x + a y in CUDA: a thread per element. */
#include "../../ode_cuda.h"

__global__ static void axpy(double *z, const double *x, const double *y, int n, double a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		z[i] = x[i] + a * y[i];
}

void ode_axpy_cuda(double *z, const double *x, const double *y, int n, double a)
{
	axpy<<<ODE_GRID(n)>>>(z, x, y, n, a);
}
