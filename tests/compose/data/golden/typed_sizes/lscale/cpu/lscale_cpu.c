void lscale_cpu(float *v, long long n, double alpha)
{
	for (long long i = 0; i < n; i++)
		v[i] = (float)(v[i] * alpha);
}
