/*
 * Implementation prototypes checked against their interface before any C
 * compiler runs: parameter count and order, types after typedef resolution,
 * and const-ness of pointers against the access modes.
 */
#ifndef COMPOSE_PROTOCHECK_H
#define COMPOSE_PROTOCHECK_H

#include "ir.h"

/*
 * Check every implementation that takes part in the build.  outdir is
 * where the generated Makefile runs, which relative -I flags refer to.
 * args (-I, -D from the command line) go to the parser.  Without libclang there is nothing to check with: a note at -v.
 * Returns the number of errors reported.
 */
unsigned check_prototypes(const struct model *m, const char *outdir, char *const *args,
			  size_t nargs);

#endif
