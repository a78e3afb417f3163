/* Rows packed, cols elements apart. */
void mtotal_cpu(const double *A, int rows, int cols, double *total)
{
	*total = 0;
	for (int i = 0; i < rows * cols; i++)
		*total += A[i];
}
