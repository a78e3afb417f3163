/*
 * Platform facts for static constraints: what hwloc finds on this machine,
 * what this build composes for, and what a platform description
 * (<peppher:platform>, repository/platforms/NAME.xml) says, which wins.
 */
#ifndef COMPOSE_PLATFORM_H
#define COMPOSE_PLATFORM_H

#include <stdbool.h>

#include "ir.h"

/* Add the detected facts to m->facts: num_cores and num_pus (hwloc,
 * without its I/O discovery), and has_cpu, has_openmp, has_cuda,
 * has_opencl (bit per enum platform in build_platforms). */
void platform_detect(struct model *m, unsigned build_platforms);

/*
 * The value of fact name (the last one added to m->facts wins); false if
 * unknown.  num_cuda_devices and num_opencl_devices, unless m->facts has
 * them (--platform), are hwloc's OS devices, counted on first use (once
 * per process); has_lib_X says whether a linker finds library X here.
 */
bool platform_fact(const struct model *m, const char *name, double *value);

#endif
