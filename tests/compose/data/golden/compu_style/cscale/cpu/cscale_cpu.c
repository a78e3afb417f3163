/* Called once per block of rows: rows is the block's. */
void cscale_cpu(float *m, int rows, int cols, float factor)
{
	for (int i = 0; i < rows * cols; i++)
		m[i] *= factor;
}
