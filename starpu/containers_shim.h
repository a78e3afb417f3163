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
struct pph_data;
int pph__data_held_here(struct pph_data *handle, const char *what);
void pph__data_discard(struct pph_data *handle);
struct pph_container;
void pph__data_set_container(struct pph_data *handle, struct pph_container *c);

#ifdef PPH_STARPU_MPI
/* libpeppher-starpu-mpi: a container's handle is distributed (it gets an
 * owner rank), a handle registered by anyone else stays each rank's own.
 * The runtime's header comes first, so that its declarations stay as
 * they are; a macro does not expand its own name again. */
#include <peppher/runtime.h>
int sp__container_registered(int rc, pph_data_handle *handle);
#define pph_vector_register(h, ...) sp__container_registered(pph_vector_register(h, __VA_ARGS__), h)
#define pph_matrix_register(h, ...) sp__container_registered(pph_matrix_register(h, __VA_ARGS__), h)
#define pph_variable_register(h, ...) \
	sp__container_registered(pph_variable_register(h, __VA_ARGS__), h)
#endif
#endif
