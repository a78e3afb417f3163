#include <stddef.h>

void ucopy_cpu(float *y, const volatile float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		y[i] = x[i];
}
