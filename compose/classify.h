/* Classification of parameters: what each one is for the runtime. */
#ifndef COMPOSE_CLASSIFY_H
#define COMPOSE_CLASSIFY_H

#include "ir.h"

/*
 * Give every parameter its kind, bind sizes to the buffers they size, set
 * block counts (@partition, and the main descriptor's requiredInterface
 * partition), and whether calls are asynchronous.  Returns the number of
 * errors reported.
 */
unsigned classify_model(struct model *m);
/* A reduction operator the runtime has built in: enum pph_reduction_op's
 * value for "sum", "min", "max", else -1. */
int reduction_builtin(const char *op);
/* enum pph_elem_type's value for an element type as C, or -1. */
int reduction_type(const char *elem_type);

/* The parameter of ifc named name, or NULL. */
struct param *classify_find_param(struct iface *ifc, const char *name);

/* For cexpr_type (ctx: the interface): does name hold an integer?  A
 * by-value parameter of no floating type ("int", "size_t", a typedef
 * such as "blasint"), and the platform's facts and the runtime's
 * resources (counts); not a float or double parameter. */
bool classify_integral_name(void *ctx, const char *name);

#endif
