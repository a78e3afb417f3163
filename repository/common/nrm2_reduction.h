/*
 * nrm2's reduction (the including file is compiled once per type T): norms
 * combine as hypot(a, b) = sqrt(a^2 + b^2), which neither overflows nor
 * underflows where the result does not, and within about one ulp per
 * combination; 0 is the identity.  Every nrm2 variant defines the operator
 * (weak: one definition is kept), so the program gets it from whichever
 * variants it was composed with.
 */
#include <float.h>
#include <math.h>

__attribute__((weak)) void nrm2_identity(void *elem)
{
	*(double *)elem = 0;
}

__attribute__((weak)) void nrm2_combine(void *into, const void *from)
{
	*(double *)into = hypot(*(double *)into, *(const double *)from);
}

/* sqrt(sum x_i^2) with every term divided by max |x_i| first. */
static inline double nrm2_scaled(int n, const T *x)
{
	double m = 0, s = 0;

	for (int i = 0; i < n; i++)
		m = fmax(m, fabs((double)x[i]));
	if (m == 0 || isinf(m))
		return m;
	for (int i = 0; i < n; i++) {
		double t = x[i] / m;

		s += t * t;
	}
	return m * sqrt(s);
}

/*
 * The norm of x from s, its sum of squares in double: sqrt(s), unless s
 * overflowed or is so small that squares may have underflowed (only
 * possible in double: squares of floats fit a double), where x is summed
 * again, scaled.  A NaN stays a NaN.
 */
static inline double nrm2_of_sum(double s, int n, const T *x)
{
	if (isnan(s))
		return s;
	if (isinf(s) || s < 0x1p-900)
		return nrm2_scaled(n, x);
	return sqrt(s);
}
