/*
 * Platform facts for static constraints: what hwloc finds on this machine,
 * what this build composes for, and what a platform description
 * (<peppher:platform>, repository/platforms/NAME.xml) says, which wins.
 */
#ifndef COMPOSE_PLATFORM_H
#define COMPOSE_PLATFORM_H

#include <stdbool.h>

#include "ir.h"

/* Add the detected facts to m->facts: num_cores, num_pus,
 * num_cuda_devices and num_opencl_devices (hwloc's OS devices), and
 * has_cpu, has_openmp, has_cuda, has_opencl (bit per enum platform in
 * build_platforms). */
void platform_detect(struct model *m, unsigned build_platforms);

/* The value of fact name (the last one added wins); false if unknown. */
bool platform_fact(const struct model *m, const char *name, double *value);

#endif
