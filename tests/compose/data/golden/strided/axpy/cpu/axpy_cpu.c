void axpy_cpu(int n, float a, const float *x, int incx, float *y, int incy)
{
	for (int i = 0; i < n; i++)
		y[i * incy] += a * x[i * incx];
}
