/* Blocks of 8 with a scalar tail: a second CPU variant the runtime can pick. */
void vector_scale_cpu_blocked(float *x, int n, float factor, float offset)
{
	int i = 0, j;

	for (; i + 8 <= n; i += 8)
		for (j = 0; j < 8; j++)
			x[i + j] = factor * x[i + j] + offset;
	for (; i < n; i++)
		x[i] = factor * x[i] + offset;
}
