void vadd_unrolled(const float *a, const float *b, float *c, int n)
{
	int i = 0;

	for (; i + 4 <= n; i += 4) {
		c[i] = a[i] + b[i];
		c[i + 1] = a[i + 1] + b[i + 1];
		c[i + 2] = a[i + 2] + b[i + 2];
		c[i + 3] = a[i + 3] + b[i + 3];
	}
	for (; i < n; i++)
		c[i] = a[i] + b[i];
}
