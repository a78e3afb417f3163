/* A worker's stack: see worker_stack.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>

#include "worker_stack.h"

const char *pph__stack_usage(void)
{
	return "expected a worker's stack size, at least 64 KiB: KiB, or a number and B, K, M or G";
}

int pph__stack_from_env(size_t *bytes)
{
	const char *s = getenv("PEPPHER_STACKSIZE");
	unsigned long long v;
	unsigned shift = 10; /* KiB, as OMP_STACKSIZE */
	char *end;

	*bytes = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end && !end[1]) {
		const char *units = "BbKkMmGg", *u = strchr(units, *end);

		shift = u ? (unsigned)(u - units) / 2 * 10 : 64;
		end += u != NULL;
	}
	/* digits first: strtoull takes " 2", "+2" and "-2" */
	if (errno || *end || *s < '0' || *s > '9' || shift > 30 || v > (SIZE_MAX >> shift) ||
	    ((size_t)v << shift) < PPH_STACK_MIN)
		return -EINVAL;
	*bytes = (size_t)v << shift;
	return 0;
}

size_t pph__stack_bytes(size_t asked)
{
	struct rlimit rl;

	if (asked)
		return asked;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY)
		return PPH_STACK_UNLIMITED;
	return 0;
}
