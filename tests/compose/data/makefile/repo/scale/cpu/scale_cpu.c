void scale_cpu(float *x, int n, float a)
{
	for (int i = 0; i < n; i++)
		x[i] *= a;
}
