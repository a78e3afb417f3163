/* Compiled once per type T (-DT=float -Dsort_cpu=sort_cpu_float, ...): qsort. */
#include <stdlib.h>

static int compare(const void *a, const void *b)
{
	T x = *(const T *)a, y = *(const T *)b;

	return (x > y) - (x < y);
}

void sort_cpu(T *v, int n)
{
	if (n <= 1) /* n < 0 as (size_t) would be huge */
		return;
	qsort(v, (size_t)n, sizeof(T), compare);
}
