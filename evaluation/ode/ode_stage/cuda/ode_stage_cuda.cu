/* A stage's argument in CUDA: a thread per element. */
#include "../../ode_cuda.h"

__global__ static void stage(double *w, const double *y, const double *k1, const double *k2,
			     const double *k3, const double *k4, const double *k5,
			     const double *k6, int n, double h, double a1, double a2, double a3,
			     double a4, double a5, double a6)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		w[i] = y[i] + h * (a1 * k1[i] + a2 * k2[i] + a3 * k3[i] + a4 * k4[i] + a5 * k5[i] +
				   a6 * k6[i]);
}

void ode_stage_cuda(double *w, const double *y, const double *k1, const double *k2,
		const double *k3, const double *k4, const double *k5, const double *k6, int n, double h,
		double a1, double a2, double a3, double a4, double a5, double a6)
{
	stage<<<ODE_GRID(n)>>>(w, y, k1, k2, k3, k4, k5, k6, n, h, a1, a2, a3, a4, a5, a6);
}
