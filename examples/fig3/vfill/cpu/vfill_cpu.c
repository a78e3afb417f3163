void vfill_cpu(float *v, int n, float start)
{
	for (int i = 0; i < n; i++)
		v[i] = start + (float)i;
}
