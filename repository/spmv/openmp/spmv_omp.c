/* y = A x, A in CSR form: rows in parallel, in chunks that balance uneven rows. */
void spmv_omp(int m, int n, int nnz, const int *rowptr, const int *colind, const double *val,
	      const double *x, double *y)
{
	int i;

	(void)n;
#pragma omp parallel for schedule(dynamic, 64)
	for (i = 0; i < m; i++) {
		int end = i + 1 < m ? rowptr[i + 1] : nnz; /* rowptr[m] is not passed */
		double s = 0;

		for (int j = rowptr[i]; j < end; j++)
			s += val[j] * x[colind[j]];
		y[i] = s;
	}
}
