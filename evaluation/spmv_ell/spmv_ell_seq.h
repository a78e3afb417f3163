/* SpMV (ELLPACK)'s input generator and sequential reference (not a component). */
#ifndef SPMV_ELL_SEQ_H
#define SPMV_ELL_SEQ_H

/* An m x m matrix in ELLPACK form, w slots per row: the diagonal, then
 * w - 1 columns within a band of m / 16 around it (slots of shorter rows
 * padded with column i and 0), colind and val m * w each. */
void spmv_ell_generate(int *colind, float *val, int m, int w);
/* y = A x, summed in double */
void spmv_ell_reference(const int *colind, const float *val, const float *x, float *y, int m,
			int w);

#endif
