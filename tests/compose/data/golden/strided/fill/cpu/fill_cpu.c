void fill_cpu(float *A, int m, int n, int lda, float value)
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			A[i * lda + j] = value;
}
