/* The sum of the elements of x, shared by the OpenMP team. */
void ode_sum_omp(double *res, const double *x, int n)
{
	double s = 0.0;
	int i;

#pragma omp parallel for schedule(static) reduction(+ : s)
	for (i = 0; i < n; i++)
		s += x[i];
	*res = s;
}
