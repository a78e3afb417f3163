/* Expansion of generic interfaces into one concrete interface per type. */
#ifndef COMPOSE_EXPAND_H
#define COMPOSE_EXPAND_H

#include "ir.h"

/*
 * For every generic interface (kind="generic" templateTypes="T"), make one
 * instance NAME_X per type X that the requiring descriptors list in
 * templateArgs, with T replaced by X in the parameter types and each
 * implementation IMPL cloned as IMPL_X, whose sources are compiled with
 * -DT=X -DIMPL=IMPL_X.  The generic interface leaves m->ifaces for
 * m->generics.  Returns the number of errors reported.
 */
unsigned expand_generics(struct model *m);

/* "unsigned int" -> "unsigned_int": the suffix of an instance's names. */
char *type_suffix(const char *type);

#endif
