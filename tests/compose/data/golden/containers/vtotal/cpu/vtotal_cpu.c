void vtotal_cpu(const float *v, int n, double *total)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	*total = s;
}
