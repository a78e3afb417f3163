void vscale_cpu(float *v, int n, float a)
{
	for (int i = 0; i < n; i++)
		v[i] *= a;
}
