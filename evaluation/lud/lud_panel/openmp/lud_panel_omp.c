/* The diagonal block by Doolittle's method, then its perimeter: U's blocks
 * by forward substitution, L's by division; the perimeter shared by the OpenMP team. */
#define B 16

void lud_panel_omp(float *A, int n, int k0)
{
	int i, j, p, end = k0 + B;

	for (i = k0; i < end; i++) {
		for (j = i; j < end; j++)
			for (p = k0; p < i; p++)
				A[i * n + j] -= A[i * n + p] * A[p * n + j];
		for (j = i + 1; j < end; j++) {
			for (p = k0; p < i; p++)
				A[j * n + i] -= A[j * n + p] * A[p * n + i];
			A[j * n + i] /= A[i * n + i];
		}
	}
#pragma omp parallel for private(i, p) schedule(static)
	for (j = end; j < n; j++) {
		for (i = k0; i < end; i++)
			for (p = k0; p < i; p++)
				A[i * n + j] -= A[i * n + p] * A[p * n + j];
		for (i = k0; i < end; i++) {
			for (p = k0; p < i; p++)
				A[j * n + i] -= A[j * n + p] * A[p * n + i];
			A[j * n + i] /= A[i * n + i];
		}
	}
}
