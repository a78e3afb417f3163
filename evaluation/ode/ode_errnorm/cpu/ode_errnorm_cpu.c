/* The error's weighted RMS norm. */
#include <math.h>

void ode_errnorm_cpu(double *res, const double *err, const double *y, const double *ynew, int n,
		     double atol, double rtol)
{
	double s = 0.0;
	int i;

	for (i = 0; i < n; i++) {
		double q = err[i] / (atol + rtol * fmax(fabs(y[i]), fabs(ynew[i])));

		s += q * q;
	}
	*res = sqrt(s / n);
}
