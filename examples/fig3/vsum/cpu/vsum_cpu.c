void vsum_cpu(float *v, int n, float *sum)
{
	float s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	*sum = s;
}
