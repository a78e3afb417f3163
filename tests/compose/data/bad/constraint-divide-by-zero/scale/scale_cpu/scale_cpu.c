void scale_cpu(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] *= 2;
}
