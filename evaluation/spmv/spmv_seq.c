/* SpMV's input generator and sequential reference. */
#include "../common/eval.h"
#include "spmv_seq.h"

void spmv_generate(struct spmv_csr *a, int m)
{
	struct eval_rng r = { 7 };
	int band = m / 8 > 1 ? m / 8 : 1, i, p = 0;

	a->m = m;
	a->rowptr = malloc(((size_t)m + 1) * sizeof(int));
	a->colind = malloc((size_t)m * 31 * sizeof(int));
	a->val = malloc((size_t)m * 31 * sizeof(double));
	if (!a->rowptr || !a->colind || !a->val) {
		spmv_free(a);
		return;
	}
	for (i = 0; i < m; i++) {
		int len = 1 + (int)(eval_rand(&r) % 31), k;

		a->rowptr[i] = p;
		a->colind[p] = i;
		a->val[p++] = 4.0;
		for (k = 1; k < len; k++) {
			long c = i + (long)(eval_rand(&r) % (2 * band + 1)) - band;

			a->colind[p] = (int)(c < 0 ? -c : c >= m ? 2L * (m - 1) - c : c);
			a->val[p++] = eval_uniform(&r) - 0.5;
		}
	}
	a->rowptr[m] = p;
	a->nnz = p;
}

void spmv_free(struct spmv_csr *a)
{
	free(a->rowptr);
	free(a->colind);
	free(a->val);
	a->rowptr = a->colind = NULL;
	a->val = NULL;
}

void spmv_reference(const struct spmv_csr *a, const double *x, double *y)
{
	int i, p;

	for (i = 0; i < a->m; i++) {
		double s = 0;

		for (p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
			s += a->val[p] * x[a->colind[p]];
		y[i] = s;
	}
}
