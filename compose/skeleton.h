/*
 * Utility mode: PEPPHER-ize legacy code.  From C headers, write for every
 * non-static function an interface descriptor, one implementation
 * descriptor and stub per platform, and a main.xml (with a main.c stub)
 * requiring them all, so that the tree composes as generated.
 */
#ifndef COMPOSE_SKELETON_H
#define COMPOSE_SKELETON_H

#include <stdbool.h>
#include <stddef.h>

struct skeleton_request {
	char **headers;
	size_t nheaders;
	char **clang_args; /* -I and -D options for the header parser */
	size_t nargs;
	const char *std; /* -std=STD: the headers' C standard ("c2x"), or NULL */
	char **link_args; /* -L and -l options: the library the CPU variants call */
	size_t nlink;
	const char *outdir;
	bool force;   /* overwrite existing files */
	bool dry_run; /* list what would be written */
	bool empty;   /* CPU stubs to fill in, not calling the original */
};

/* Returns 0, or -1 after reporting errors (and then writes nothing). */
int generate_skeletons(const struct skeleton_request *r);

#endif
