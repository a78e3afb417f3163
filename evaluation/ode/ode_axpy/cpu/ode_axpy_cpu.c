/* z = x + a y */
void ode_axpy_cpu(double *z, const double *x, const double *y, int n, double a)
{
	int i;

	for (i = 0; i < n; i++)
		z[i] = x[i] + a * y[i];
}
