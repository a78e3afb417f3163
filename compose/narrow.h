/* Narrowing: which variants take part in the build. */
#ifndef COMPOSE_NARROW_H
#define COMPOSE_NARROW_H

#include <stdbool.h>

#include "ir.h"

/* Bit per enum platform: the platforms this build can compile for. */
unsigned narrow_build_platforms(void);

/* What the command line narrows the composition to. */
struct narrowing {
	unsigned build_platforms;    /* this build, or --platforms */
	unsigned disabled_platforms; /* --disable-cpu, --disable-cuda, ... */
	char **disabled_impls;	     /* --disable-impls */
	size_t ndisabled_impls;
	enum model_kind model;	     /* --use-*-models: for interfaces that say none */
};

/*
 * Apply the command line's defaults (the kind of performance model); parse
 * and check constraints; leave out the variants that must not take part,
 * each with a note saying why, and list the others in iface->chosen.
 * Returns the number of errors reported.
 */
unsigned narrow_model(struct model *m, const struct narrowing *nw);

/* Is name a runtime resource a dynamic constraint may use (num_gpus...)? */
bool narrow_is_resource(const char *name);

#endif
