#include <stdbool.h>

#include "../../total_types.h"

/* A component with a value: the sum of x, or half of it (a bool: compose
 * includes <stdbool.h> for the interface). */
double total_cpu(const real *x, count n, bool half)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	return half ? s / 2 : s;
}
