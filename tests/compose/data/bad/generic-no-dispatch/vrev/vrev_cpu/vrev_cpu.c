#include <stddef.h>
#include <string.h>
void vrev_cpu(T *x, size_t n)
{
	
	for (size_t i = 0; i < n / 2; i++) { T t; memcpy(&t, &x[i], sizeof t); memcpy(&x[i], &x[n - 1 - i], sizeof t); memcpy(&x[n - 1 - i], &t, sizeof t); }
}
