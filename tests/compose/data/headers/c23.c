/* The library behind c23.h. */
#include <c23.h>

int c23_sum(const int *v, size_t n)
{
	int s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

int c23_total(const int *v, size_t n)
{
	return c23_sum(v, n);
}
