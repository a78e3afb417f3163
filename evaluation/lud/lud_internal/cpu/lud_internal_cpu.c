/* The trailing matrix loses the product of the L and U perimeter blocks. */
#define B 16

void lud_internal_cpu(float *A, int n, int k0)
{
	int i, j, p, end = k0 + B;

	for (i = end; i < n; i++)
		for (p = k0; p < end; p++) {
			float l = A[i * n + p];

			for (j = end; j < n; j++)
				A[i * n + j] -= l * A[p * n + j];
		}
}
