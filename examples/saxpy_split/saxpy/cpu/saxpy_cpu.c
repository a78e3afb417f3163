/* One block: n is the block's length, rebuilt from its handle. */
void saxpy_cpu(float *y, const float *x, int n, float a)
{
	for (int i = 0; i < n; i++)
		y[i] += a * x[i];
}
