void colsum_cpu(const float *a, int rows, int cols, float *sums)
{
	for (int j = 0; j < cols; j++)
		sums[j] = 0;
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			sums[j] += a[i * cols + j];
}
