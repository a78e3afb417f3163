#include "../../total_types.h"

/* A component with a value: the sum of x. */
double total_cpu(const real *x, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	return s;
}
