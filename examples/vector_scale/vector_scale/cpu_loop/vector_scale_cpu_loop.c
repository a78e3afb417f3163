/* The plain sequential loop. */
void vector_scale_cpu_loop(float *x, int n, float factor, float offset)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = factor * x[i] + offset;
}
