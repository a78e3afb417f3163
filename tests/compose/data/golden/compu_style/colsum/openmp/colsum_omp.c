void colsum_omp(const float *a, int rows, int cols, float *sums)
{
#pragma omp parallel for
	for (int j = 0; j < cols; j++) {
		float s = 0;

		for (int i = 0; i < rows; i++)
			s += a[i * cols + j];
		sums[j] = s;
	}
}
