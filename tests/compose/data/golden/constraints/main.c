/* Dynamic constraints choose the variant per call; a static one leaves a
 * variant out; a component returns a value. */
#include <stdio.h>
#include <stdlib.h>

#include "peppher.h"

int main(void)
{
	static float y[5000];
	int sizes[] = { 10, 5000, 999, 1000, 1001 }; /* odd under 3000: small */
	unsigned i;

	PEPPHER_INITIALIZE();
	for (i = 0; i < 5; i++) {
		pick(y, sizes[i]);
		printf("n=%d: variant %g, total %g\n", sizes[i], y[sizes[i] - 1],
		       total(y, sizes[i], i == 3));
	}
	/* a negative count of a typedef'd type: passed as given, no element */
	printf("n=-1: total %g\n", total(y, -1, 0));
	PEPPHER_SHUTDOWN();
	return 0;
}
