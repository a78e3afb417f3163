void matmul_naive(double *C, const double *A, const double *B, int m, int n, int k)
{
	int i, j, l;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double s = 0;

			for (l = 0; l < k; l++)
				s += A[i * k + l] * B[l * n + j];
			C[i * n + j] = s;
		}
}
