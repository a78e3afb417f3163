void csum_cpu(const float *v, int n, double *sum)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	*sum = s;
}
