/* Rows ld elements apart: the padding between them is not touched. */
void mscale_cpu(double *A, int rows, int cols, int ld, double by)
{
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			A[i * ld + j] *= by;
}
