/* Compiled once per type T: x = alpha x. */
void scale_cpu(int n, T *x, T alpha)
{
	for (int i = 0; i < n; i++)
		x[i] *= alpha;
}
