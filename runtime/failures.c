/* How failed component calls are said (failures.h). */
#include <stdatomic.h>
#include <stdio.h>

#include "failures.h"

int pph__failure_said(void)
{
	static atomic_ulong said;
	unsigned long n = atomic_fetch_add(&said, 1);

	if (n == PPH_FAILURES_SAID)
		fprintf(stderr, "peppher: more calls failed: counted, not said one by one (PEPPHER_SHUTDOWN() says how many; pph_failed_calls())\n");
	return n < PPH_FAILURES_SAID;
}
