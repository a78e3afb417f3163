/* Compiled once per type T: *result = hypot(*result, ||x||), summed in
 * double (scaled where that overflows or underflows).  result is a reduction:
 * an accumulator of this task's own, set to 0 (see nrm2.xml). */
#include "../../common/nrm2_reduction.h"

void nrm2_cpu(int n, const T *x, double *result)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += (double)x[i] * x[i];
	*result = hypot(*result, nrm2_of_sum(s, n, x));
}
