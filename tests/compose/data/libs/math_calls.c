/* A program of <math.h> calls: prints each result's bits (%a), so that
 * PEPPHER's results can be compared exactly with direct calls. */
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
	int e, i;

	for (i = 1; i <= 8; i++) {
		x = i * 0.37;
		sum += sin(x) * cos(x) + exp(-x) * log(x + 1);
		sum += pow(x, 2.5) + sqrt(x) + fabs(-x) + floor(x * 3);
		sum += frexp(x * 1000, &e) + e + modf(x * 7, &whole) + whole;
		printf("%d %a %a %a\n", i, sum, atan2(x, sum), sinf((float)x));
	}
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
