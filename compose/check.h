/* Semantic checks and static narrowing over a loaded model. */
#ifndef COMPOSE_CHECK_H
#define COMPOSE_CHECK_H

#include <stdbool.h>

#include "ir.h"

/* Bit per enum platform: the platforms this build can compile for. */
unsigned check_build_platforms(void);

/* What the command line narrows the composition to. */
struct narrowing {
	unsigned build_platforms;    /* this build, or --platforms */
	unsigned disabled_platforms; /* --disable-cpu, --disable-cuda, ... */
	char **disabled_impls;	     /* --disable-impls */
	size_t ndisabled_impls;
	enum model_kind model;	     /* --use-*-models: for interfaces that say none */
};

/*
 * Check names, parameters and implementations; classify parameters; exclude
 * implementations as the descriptors and the narrowing say (each with its
 * reason, as a note); and order the interfaces bottom-up (required ones
 * first), reporting cycles.  Returns the number of errors reported.
 */
unsigned check_model(struct model *m, const struct narrowing *nw);

/* Is name a runtime resource a dynamic constraint may use (num_gpus...)? */
bool check_is_resource(const char *name);

#endif
