/* Compiled once per type T: *result = hypot(*result, ||x||), summed in
 * double by the team (scaled, by one thread, where that overflows or
 * underflows).  result is a reduction: an accumulator of this task's own. */
#include "../../common/nrm2_reduction.h"

void nrm2_omp(int n, const T *x, double *result)
{
	double s = 0;

#pragma omp parallel for simd reduction(+ : s) schedule(static)
	for (int i = 0; i < n; i++)
		s += (double)x[i] * x[i];
	*result = hypot(*result, nrm2_of_sum(s, n, x));
}
