/* Compiled once per type T: x = alpha x, the loop shared by the team. */
void scale_omp(int n, T *x, T alpha)
{
#pragma omp parallel for simd schedule(static)
	for (int i = 0; i < n; i++)
		x[i] *= alpha;
}
