/* Reading descriptors into the IR. */
#ifndef COMPOSE_LOAD_H
#define COMPOSE_LOAD_H

#include "ir.h"
#include "skipfiles.h"

/*
 * Load the application described by the main descriptor at main_path:
 * follow required interfaces to any depth, looking them up by @xmlFile or in
 * the nroots repository roots, and read every implementation descriptor under
 * each interface's impPath, except those skip names (NULL: none).  Every
 * descriptor is validated against the schema.  Problems are reported
 * through diag; returns the number of errors.
 */
unsigned load_model(struct model *m, const char *main_path,
		    char *const *roots, size_t nroots, const struct skip_files *skip);

/*
 * Read the platform description at path (<peppher:platform>, validated)
 * and append its facts to m->facts; <peppher:library name="X"/> is the
 * fact has_lib_X = 1.  Returns the number of errors reported.
 */
unsigned load_platform(struct model *m, const char *path);

/* Validate one descriptor file against the schema (diagnostics only). */
unsigned load_validate_file(const char *path);

#endif
