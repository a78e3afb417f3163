/* The Brusselator's initial values in CUDA: a thread per grid point. */
#include "../../ode_cuda.h"

__global__ static void init(double *y, int n, int grid)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n / 2)
		return;
	double x = (double)(i % grid) / grid, z = (double)(i / grid) / grid;
	y[i] = 22.0 * z * pow(1.0 - z, 1.5);
	y[n / 2 + i] = 27.0 * x * pow(1.0 - x, 1.5);
}

void ode_init_cuda(double *y, int n, int grid)
{
	init<<<ODE_GRID(n / 2)>>>(y, n, grid);
}
