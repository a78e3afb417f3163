/* Semantic checks and static narrowing over a loaded model. */
#ifndef COMPOSE_CHECK_H
#define COMPOSE_CHECK_H

#include "ir.h"

/* Bit per enum platform: the platforms this build can compile for. */
unsigned check_build_platforms(void);

/*
 * Check names, parameters and implementations; classify parameters; mark
 * implementations for platforms outside the platforms mask as skipped; and
 * order the interfaces bottom-up (required ones first), reporting cycles.
 * Returns the number of errors reported.
 */
unsigned check_model(struct model *m, unsigned platforms);

#endif
