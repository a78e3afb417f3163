/* Names from descriptors as C identifiers, and the names generated code
 * makes of them: no keyword, no reserved or library name, no clash. */
#ifndef COMPOSE_NAMES_H
#define COMPOSE_NAMES_H

#include <stdbool.h>

#include "ir.h"

/* Why generated code cannot use name as it is (" is a C or C++ keyword",
 * to follow the name), or NULL when it can. */
const char *names_problem(const char *name);

/* names_problem() for a function the generated code declares or wraps,
 * which may not be main either. */
const char *names_function_problem(const char *name);

/* names_problem() for parameter name of interface iface: nor may it be a
 * name the entry wrapper uses where the parameters are in scope. */
const char *names_param_problem(const char *iface, const char *name);

/* names_problem() for an implementation's name, which its backend wrapper
 * calls beside its locals (and kernel, that of a ComPU-style OpenCL one). */
const char *names_impl_problem(const char *name, bool opencl_kernel);

/* Report name (what: "parameter name", ...) at loc unless it is an
 * identifier that generated code can use as it is. */
void names_check_identifier(const struct loc *loc, const char *what, const char *name);

/* Report every name that two things in the generated code would both use.
 * Returns the number of errors reported. */
unsigned names_check(const struct model *m);

#endif
