/* Compiled once per type T: *result = sqrt(x . x), summed in double by the team. */
#include <math.h>

void nrm2_omp(int n, const T *x, T *result)
{
	double s = 0;

#pragma omp parallel for simd reduction(+ : s) schedule(static)
	for (int i = 0; i < n; i++)
		s += (double)x[i] * x[i];
	*result = (T)sqrt(s);
}
