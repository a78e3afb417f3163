/* A program of <math.h> calls: prints each result's bits (%a), so that
 * PEPPHER's results can be compared exactly with direct calls, and errno
 * and the floating-point flags as the calls leave them, under the rounding
 * the program set (a composed call may run on a worker thread). */
#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#ifndef DIRECT
#include "peppher.h"
#endif

int main(void)
{
#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	double x, whole, sum = 0;
	volatile double two = 2.0, zero = 0.0; /* not folded at compile time */
	int e, i;

	for (i = 1; i <= 8; i++) {
		x = i * 0.37;
		sum += sin(x) * cos(x) + exp(-x) * log(x + 1);
		sum += pow(x, 2.5) + sqrt(x) + fabs(-x) + floor(x * 3);
		sum += frexp(x * 1000, &e) + e + modf(x * 7, &whole) + whole;
		printf("%d %a %a %a\n", i, sum, atan2(x, sum), sinf((float)x));
	}
	errno = 0;
	x = log(-1.0);
	printf("log(-1): %s, errno %s\n", isnan(x) ? "NaN" : "a number", errno == EDOM ? "EDOM" : "not EDOM");
	errno = 0;
	x = exp(1000.0);
	printf("exp(1000): %a, errno %s\n", x, errno == ERANGE ? "ERANGE" : "not ERANGE");
	errno = 0;
	x = sqrt(2.0);
	printf("sqrt(2): %a, errno %d\n", x, errno);
	fesetround(FE_UPWARD);
	x = sqrt(two);
	fesetround(FE_DOWNWARD);
	whole = sqrt(two);
	fesetround(FE_TONEAREST);
	printf("sqrt(2) rounded upward %a, downward %a\n", x, whole);
	feclearexcept(FE_ALL_EXCEPT);
	x = log(zero);
	printf("log(0): %a, FE_DIVBYZERO %s\n", x, fetestexcept(FE_DIVBYZERO) ? "raised" : "not raised");
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
