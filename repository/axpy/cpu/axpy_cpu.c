/* Compiled once per type T: y = alpha x + y. */
void axpy_cpu(int n, const T *x, T *y, T alpha)
{
	for (int i = 0; i < n; i++)
		y[i] += alpha * x[i];
}
