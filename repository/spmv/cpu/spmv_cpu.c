/* y = A x, A in CSR form, one row after another. */
void spmv_cpu(int m, int n, int nnz, const int *rowptr, const int *colind, const double *val,
	      const double *x, double *y)
{
	int i, j;

	(void)n;
	for (i = 0; i < m; i++) {
		int end = i + 1 < m ? rowptr[i + 1] : nnz; /* rowptr[m] is not passed */
		double s = 0;

		for (j = rowptr[i]; j < end; j++)
			s += val[j] * x[colind[j]];
		y[i] = s;
	}
}
