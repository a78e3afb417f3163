/* dst = src */
#include <string.h>

void ode_copy_cpu(double *dst, const double *src, int n)
{
	memcpy(dst, src, (size_t)n * sizeof(*dst));
}
