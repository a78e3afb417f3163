/*
 * Preloaded into compose by tests/compose/output.sh: rename() fails with
 * EIO at the calls PPH_FAIL_RENAME lists ("3" or "3,4": the third call, or
 * the third and the fourth, counted from 1), and renames as libc does at
 * the others.  A rename that fails half way through a commit is otherwise
 * hard to bring about: compose checks every destination before the first.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	static unsigned calls;
	const char *list = getenv("PPH_FAIL_RENAME");
	char *end;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	calls++;
	while (list && *list) {
		unsigned long n = strtoul(list, &end, 10);

		if (end == list)
			break;
		if (n == calls) {
			errno = EIO;
			return -1;
		}
		list = *end == ',' ? end + 1 : end;
	}
	return real(from, to);
}
