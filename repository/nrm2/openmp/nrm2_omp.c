/* Compiled once per type T: *result = hypot(*result, ||x||), summed in
 * double by the team (scaled, by one thread, where that overflows or
 * underflows).  result is a reduction: an accumulator of this task's own. */
#include "../../common/nrm2_reduction.h"

/* clang does not vectorize the double instance of this loop (its
 * vectorizer declines a double sum's reduction here) and says so as a
 * warning, which -Werror made an error; simd is a hint the result does
 * not depend on. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

void nrm2_omp(int n, const T *x, double *result)
{
	double s = 0;

#pragma omp parallel for simd reduction(+ : s) schedule(static)
	for (int i = 0; i < n; i++)
		s += (double)x[i] * x[i];
	*result = hypot(*result, nrm2_of_sum(s, n, x));
}
