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

int pph__codelet_check(const struct pph_codelet *cl)
{
	const char *why = NULL;
	unsigned i = 0;

	if (!cl->name || !*cl->name)
		why = "has no name";
	else if (!cl->nimpls || !cl->impls)
		why = "has no variant";
	for (; !why && i < cl->nimpls; i++)
		if (!cl->impls[i].fn)
			why = "has a variant without a function";
		else if (!cl->impls[i].name)
			why = "has a variant without a name";
		else if ((unsigned)cl->impls[i].arch >= PPH_ARCH_COUNT)
			why = "has a variant of an unknown architecture";
	if (!why)
		return 0;
	if (i) /* a variant's fault: which one */
		fprintf(stderr, "peppher: codelet %s %s (variant %u): task not submitted\n",
			cl->name, why, i - 1);
	else
		fprintf(stderr, "peppher: codelet %s %s: task not submitted\n",
			cl->name ? cl->name : "(no name)", why);
	return -EINVAL;
}
