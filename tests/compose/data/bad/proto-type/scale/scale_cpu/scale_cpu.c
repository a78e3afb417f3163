#include <stddef.h>

typedef double real;

/* the typedef hides a double */
void scale_cpu(real *x, int n, float factor)
{
	(void)x; (void)n; (void)factor;
}

/* size_t is not int either */
void unrelated(size_t n) { (void)n; }
