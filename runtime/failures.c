/* How failed component calls are said (failures.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <peppher/runtime.h>

#include "failures.h"

int pph__failure_said(void)
{
	static atomic_ulong said;
	unsigned long n = atomic_fetch_add(&said, 1);

	if (n == PPH_FAILURES_SAID)
		fprintf(stderr, "peppher: more calls failed: counted, not said one by one (PEPPHER_SHUTDOWN() says how many; pph_failed_calls())\n");
	return n < PPH_FAILURES_SAID;
}

#define STR(x) #x
#define XSTR(x) STR(x)

const char *pph__failure_reason(int rc)
{
	if (rc == -E2BIG)
		return "more than " XSTR(PPH_MAX_BUFFERS) " data (pointer and container parameters), the most a task takes";
	return strerror(-rc);
}
