/* Calls every function c23.h declares; prints what they return. */
#include <stdio.h>
#include <c23.h>
#ifndef DIRECT
#include "peppher.h"
#endif

int main(void)
{
	const int v[4] = { 1, 2, 3, 4 };

#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	printf("sum %d\n", c23_sum(v, 4));
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
