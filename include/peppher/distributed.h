/*
 * Distributed runs (libpeppher-starpu-mpi, compose --runtime=starpu-mpi):
 * the rank of this process and who owns a data handle.  Under mpirun every
 * rank runs the application's main; a task runs on the rank that owns the
 * data it writes.  See doc/distributed.md.
 *
 * The same header serves every runtime, with no flag to set: only
 * libpeppher-starpu-mpi defines the pph__dist_ functions below (weak
 * references here), and on libpeppher and libpeppher-starpu the process
 * is rank 0 of 1 and owns everything.
 */
#ifndef PEPPHER_DISTRIBUTED_H
#define PEPPHER_DISTRIBUTED_H

#include <errno.h>

#include <peppher/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pph_distributed Ranks and owners
 * @{ */

/* Defined by libpeppher-starpu-mpi alone; null elsewhere. */
extern int pph__dist_rank(void) __attribute__((weak));
extern int pph__dist_size(void) __attribute__((weak));
extern int pph__dist_set_owner(pph_data_handle handle, int rank) __attribute__((weak));
extern int pph__dist_owner(pph_data_handle handle) __attribute__((weak));

/** This process's rank among the processes of the run: 0 outside MPI. */
static inline int pph_mpi_rank(void)
{
	return pph__dist_rank ? pph__dist_rank() : 0;
}

/** The number of processes of the run: 1 outside MPI. */
static inline int pph_mpi_size(void)
{
	return pph__dist_size ? pph__dist_size() : 1;
}

/**
 * Make rank the owner of handle (a container's handle, or a block or tile
 * of a partition): the tasks that write it run there from now on.  Every
 * rank must make the same call at the same point of the program.  The
 * data moves to rank (unless it has it already); the other ranks' copies
 * are dropped, and the next task elsewhere that reads it receives it.
 * Returns 0, -EINVAL (no handle, a rank outside [0, pph_mpi_size()), a
 * handle each rank keeps for itself: one registered with a raw pointer),
 * -EBUSY (the handle is partitioned).
 */
static inline int pph_data_set_owner(pph_data_handle handle, int rank)
{
	if (pph__dist_set_owner)
		return pph__dist_set_owner(handle, rank);
	return handle && rank == 0 ? 0 : -EINVAL;
}

/** The rank owning handle; -1 for a handle each rank keeps for itself
 *  (registered with a raw pointer) or none.  0 outside MPI. */
static inline int pph_data_owner(pph_data_handle handle)
{
	if (pph__dist_owner)
		return pph__dist_owner(handle);
	return handle ? 0 : -1;
}

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* PEPPHER_DISTRIBUTED_H */
