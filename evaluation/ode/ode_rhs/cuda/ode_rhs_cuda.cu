/* The 2-D Brusselator in CUDA: a thread per grid point. */
#include "../../ode_cuda.h"

__global__ static void rhs(const double *y, double *f, int n, int grid)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n / 2)
		return;
	const double *u = y, *v = y + n / 2, a = 0.002 * grid * grid;
	int r = i / grid, c = i % grid;
	int e = r * grid + (c + 1) % grid, w = r * grid + (c + grid - 1) % grid;
	int s = (r + 1) % grid * grid + c, o = (r + grid - 1) % grid * grid + c;
	double uuv = u[i] * u[i] * v[i];

	f[i] = 1.0 + uuv - 4.4 * u[i] + a * (u[e] + u[w] + u[s] + u[o] - 4.0 * u[i]);
	f[n / 2 + i] = 3.4 * u[i] - uuv + a * (v[e] + v[w] + v[s] + v[o] - 4.0 * v[i]);
}

void ode_rhs_cuda(const double *y, double *f, int n, int grid)
{
	rhs<<<ODE_GRID(n / 2)>>>(y, f, n, grid);
}
