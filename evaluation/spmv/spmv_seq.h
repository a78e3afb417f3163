/* SpMV's input generator and sequential reference (not a component). */
#ifndef SPMV_SEQ_H
#define SPMV_SEQ_H

/* An m x m sparse matrix in CSR form (rowptr has m + 1 offsets). */
struct spmv_csr {
	int m, nnz;
	int *rowptr, *colind;
	double *val;
};

/* a matrix of m rows of 1 to 31 nonzeros each (16 on average), the
 * diagonal and columns within a band of m / 8 around it, as a finite
 * element matrix numbered by a bandwidth-reducing order has: NULL pointers
 * in a on failure */
void spmv_generate(struct spmv_csr *a, int m);
void spmv_free(struct spmv_csr *a);
/* y = A x */
void spmv_reference(const struct spmv_csr *a, const double *x, double *y);

#endif
