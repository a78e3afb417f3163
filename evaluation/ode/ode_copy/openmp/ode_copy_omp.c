/* dst = src, shared by the OpenMP team. */
void ode_copy_omp(double *dst, const double *src, int n)
{
	int i;

#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		dst[i] = src[i];
}
