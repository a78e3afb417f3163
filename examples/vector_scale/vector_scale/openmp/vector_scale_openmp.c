/* An OpenMP worksharing loop over the vector. */
void vector_scale_openmp(float *x, int n, float factor, float offset)
{
	int i;

#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		x[i] = factor * x[i] + offset;
}
