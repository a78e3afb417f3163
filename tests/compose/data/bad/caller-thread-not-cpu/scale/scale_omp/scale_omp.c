void scale_omp(float *x, int n)
{
	int i;

#pragma omp parallel for
	for (i = 0; i < n; i++)
		x[i] *= 2;
}
