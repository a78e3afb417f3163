/* A stage's argument: w = y + h (a1 k1 + ... + a6 k6), shared by the OpenMP team. */
void ode_stage_omp(double *w, const double *y, const double *k1, const double *k2,
		   const double *k3, const double *k4, const double *k5, const double *k6, int n,
		   double h, double a1, double a2, double a3, double a4, double a5, double a6)
{
	int i;

#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		w[i] = y[i] + h * (a1 * k1[i] + a2 * k2[i] + a3 * k3[i] + a4 * k4[i] + a5 * k5[i] +
				   a6 * k6[i]);
}
