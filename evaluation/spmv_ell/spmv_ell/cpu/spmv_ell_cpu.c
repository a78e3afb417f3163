/* y = A x, A in ELLPACK form, one row after another. */
void spmv_ell_cpu(const int *colind, const float *val, const float *x, float *y, int m, int w,
		  int n)
{
	int i, k;

	(void)n;
	for (i = 0; i < m; i++) {
		float s = 0;

		for (k = 0; k < w; k++)
			s += val[(long)i * w + k] * x[colind[(long)i * w + k]];
		y[i] = s;
	}
}
