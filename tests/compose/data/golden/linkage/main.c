/* Calls both C++ variants from C; a call whose variant throws fails. */
#include <stdio.h>

#include "peppher.h"

int main(void)
{
	float y[4] = { 1, 2, 3, 4 };

	PEPPHER_INITIALIZE();
	addk(4, y, 1);
	mulk(4, y, 10);
	printf("%g %g %g %g\n", y[0], y[1], y[2], y[3]);
	mulk(4, y, -1);
	printf("after a throw: %lu failed call, y[0] = %g\n", pph_failed_calls(), y[0]);
	pph_shutdown();
	return 0;
}
