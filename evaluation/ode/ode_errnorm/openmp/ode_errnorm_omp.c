/* The error's weighted RMS norm, shared by the OpenMP team. */
#include <math.h>

void ode_errnorm_omp(double *res, const double *err, const double *y, const double *ynew, int n,
		     double atol, double rtol)
{
	double s = 0.0;
	int i;

#pragma omp parallel for schedule(static) reduction(+ : s)
	for (i = 0; i < n; i++) {
		double q = err[i] / (atol + rtol * fmax(fabs(y[i]), fabs(ynew[i])));

		s += q * q;
	}
	*res = sqrt(s / n);
}
