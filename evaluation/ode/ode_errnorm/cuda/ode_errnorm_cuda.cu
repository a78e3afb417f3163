/* The error's weighted RMS norm in CUDA: one block. */
#include "../../ode_cuda.h"

__global__ static void errnorm(double *res, const double *err, const double *y,
			       const double *ynew, int n, double atol, double rtol)
{
	double s = 0.0;
	int i;

	for (i = threadIdx.x; i < n; i += blockDim.x) {
		double q = err[i] / (atol + rtol * fmax(fabs(y[i]), fabs(ynew[i])));

		s += q * q;
	}
	s = ode_block_sum(s);
	if (threadIdx.x == 0)
		*res = sqrt(s / n);
}

void ode_errnorm_cuda(double *res, const double *err, const double *y, const double *ynew,
		int n, double atol, double rtol)
{
	errnorm<<<1, ODE_GROUP, 0, pph_cuda_stream()>>>(res, err, y, ynew, n, atol, rtol);
}
