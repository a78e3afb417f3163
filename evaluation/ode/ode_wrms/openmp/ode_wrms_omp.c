/* The weighted RMS norm of x, shared by the OpenMP team. */
#include <math.h>

void ode_wrms_omp(double *res, const double *x, const double *y, int n, double atol, double rtol)
{
	double s = 0.0;
	int i;

#pragma omp parallel for schedule(static) reduction(+ : s)
	for (i = 0; i < n; i++) {
		double q = x[i] / (atol + rtol * fabs(y[i]));

		s += q * q;
	}
	*res = sqrt(s / n);
}
