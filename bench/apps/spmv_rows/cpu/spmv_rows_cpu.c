/* y = A x on a block of rows, row after row (as the repository's spmv_cpu). */
void spmv_rows_cpu(int m, int nnz, int n, const int *rowptr, const int *colind, const double *val,
		   const double *x, double *y)
{
	(void)n;
	for (int i = 0; i < m; i++) {
		int end = i + 1 < m ? rowptr[i + 1] : nnz;
		double s = 0;

		for (int j = rowptr[i]; j < end; j++)
			s += val[j] * x[colind[j]];
		y[i] = s;
	}
}
