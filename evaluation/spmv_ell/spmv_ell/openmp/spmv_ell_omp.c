/* y = A x, A in ELLPACK form: rows in parallel (rows have equal work). */
void spmv_ell_omp(const int *colind, const float *val, const float *x, float *y, int m, int w,
		  int n)
{
	int i;

	(void)n;
#pragma omp parallel for schedule(static)
	for (i = 0; i < m; i++) {
		float s = 0;

		for (int k = 0; k < w; k++)
			s += val[(long)i * w + k] * x[colind[(long)i * w + k]];
		y[i] = s;
	}
}
