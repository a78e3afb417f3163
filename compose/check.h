/* Checks of a loaded model: names, types, sources, compilers, includes. */
#ifndef COMPOSE_CHECK_H
#define COMPOSE_CHECK_H

#include "ir.h"

/*
 * Check names (valid, unique, clashing with nothing compose generates),
 * parameter types, sources (there, inside their component), compilers and
 * flags (nothing that escapes into the Makefile), headers, the main
 * module's link step and the required interfaces' files.  Returns the
 * number of errors reported.
 */
unsigned check_model(const struct model *m);

#endif
