/* The weighted RMS norm of x in CUDA: one block. */
#include "../../ode_cuda.h"

__global__ static void wrms(double *res, const double *x, const double *y, int n, double atol,
			    double rtol)
{
	double s = 0.0;
	int i;

	for (i = threadIdx.x; i < n; i += blockDim.x) {
		double q = x[i] / (atol + rtol * fabs(y[i]));

		s += q * q;
	}
	s = ode_block_sum(s);
	if (threadIdx.x == 0)
		*res = sqrt(s / n);
}

void ode_wrms_cuda(double *res, const double *x, const double *y, int n, double atol,
		double rtol)
{
	wrms<<<1, ODE_GROUP, 0, pph_cuda_stream()>>>(res, x, y, n, atol, rtol);
}
