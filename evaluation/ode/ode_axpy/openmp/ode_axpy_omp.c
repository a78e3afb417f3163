/* z = x + a y, shared by the OpenMP team. */
void ode_axpy_omp(double *z, const double *x, const double *y, int n, double a)
{
	int i;

#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		z[i] = x[i] + a * y[i];
}
