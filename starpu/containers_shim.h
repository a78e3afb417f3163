/*
 * Included before containers/containers.c when it is built into
 * libpeppher-starpu: the containers use only the public runtime API and
 * these two allocation calls, so the same source serves both runtimes.
 * Defining libpeppher's internal header guard keeps its internals out.
 */
#ifndef PEPPHER_STARPU_CONTAINERS_SHIM_H
#define PEPPHER_STARPU_CONTAINERS_SHIM_H
#define PEPPHER_INTERNAL_H
#include <stddef.h>
void *pph__host_alloc(size_t bytes, int *pinned);
void pph__host_free(void *p, int pinned);
#endif
