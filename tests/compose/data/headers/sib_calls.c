/* Calls every function sib.h declares with its parts; prints what they
 * return. */
#include <stdio.h>
#include <sib.h>
#ifndef DIRECT
#include "peppher.h"
#endif

int main(void)
{
#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	sib_ctx c = { 20 };

	printf("%d %d %d %d\n", sib_version(), sib_add(&c, 1), sib_twice(&c), sib_alone_square(5));
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
