/* The sum of the elements of x. */
void ode_sum_cpu(double *res, const double *x, int n)
{
	double s = 0.0;
	int i;

	for (i = 0; i < n; i++)
		s += x[i];
	*res = s;
}
