/* Compiled once per type T: *result = sqrt(x . x), summed in double. */
#include <math.h>

void nrm2_cpu(int n, const T *x, T *result)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += (double)x[i] * x[i];
	*result = (T)sqrt(s);
}
