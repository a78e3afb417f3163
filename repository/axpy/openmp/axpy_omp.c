/* Compiled once per type T: y = alpha x + y, the loop shared by the team. */
void axpy_omp(int n, const T *x, T *y, T alpha)
{
#pragma omp parallel for simd schedule(static)
	for (int i = 0; i < n; i++)
		y[i] += alpha * x[i];
}
