/* The embedded error estimate in CUDA: a thread per element. */
#include "../../ode_cuda.h"

__global__ static void error(double *err, const double *k1, const double *k3, const double *k4,
			     const double *k5, const double *k6, const double *k7, int n, double h,
			     double e1, double e3, double e4, double e5, double e6, double e7)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] +
			      e7 * k7[i]);
}

void ode_error_cuda(double *err, const double *k1, const double *k3, const double *k4,
		const double *k5, const double *k6, const double *k7, int n, double h, double e1,
		double e3, double e4, double e5, double e6, double e7)
{
	error<<<ODE_GRID(n)>>>(err, k1, k3, k4, k5, k6, k7, n, h, e1, e3, e4, e5, e6, e7);
}
