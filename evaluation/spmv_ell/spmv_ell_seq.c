/* SpMV (ELLPACK)'s input generator and sequential reference. */
#include "../common/eval.h"
#include "spmv_ell_seq.h"

void spmv_ell_generate(int *colind, float *val, int m, int w)
{
	struct eval_rng r = { 11 };
	int band = m / 16 > 1 ? m / 16 : 1, i, k;

	for (i = 0; i < m; i++) {
		int len = w / 2 + 1 + (int)(eval_rand(&r) % (unsigned)(w - w / 2)); /* w/2+1 .. w */
		long p = (long)i * w;

		for (k = 0; k < w; k++) {
			long c = i + (long)(eval_rand(&r) % (2u * band + 1)) - band;

			colind[p + k] = k == 0 || k >= len ? i : (int)(c < 0 ? -c : c >= m ? 2L * (m - 1) - c : c);
			val[p + k] = k == 0 ? 4.0f : k >= len ? 0.0f : (float)eval_uniform(&r) - 0.5f;
		}
	}
}

void spmv_ell_reference(const int *colind, const float *val, const float *x, float *y, int m,
			int w)
{
	int i, k;

	for (i = 0; i < m; i++) {
		double s = 0;

		for (k = 0; k < w; k++)
			s += (double)val[(long)i * w + k] * x[colind[(long)i * w + k]];
		y[i] = (float)s;
	}
}
