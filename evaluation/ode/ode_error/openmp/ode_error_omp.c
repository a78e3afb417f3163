/* The embedded error estimate: err = h (e1 k1 + e3 k3 + ... + e7 k7), shared by the OpenMP team. */
void ode_error_omp(double *err, const double *k1, const double *k3, const double *k4,
		   const double *k5, const double *k6, const double *k7, int n, double h,
		   double e1, double e3, double e4, double e5, double e6, double e7)
{
	int i;

#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] +
			      e7 * k7[i]);
}
