/* Ordering of interfaces, bottom-up. */
#ifndef COMPOSE_ORDER_H
#define COMPOSE_ORDER_H

#include "ir.h"

/* Order m->ifaces bottom-up (required ones first); report cycles.
 * Returns the number of errors reported. */
unsigned order_model(struct model *m);

#endif
