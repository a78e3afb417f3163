/*
 * A program not built for MPI started by an MPI launcher: every rank runs
 * the whole program on its own, N copies of one run, which nothing else
 * would say.  libpeppher and libpeppher-starpu (one process) warn at
 * pph_init; libpeppher-starpu-mpi is the runtime that distributes.
 */
#ifndef PPH_LAUNCHER_H
#define PPH_LAUNCHER_H

#include <stdio.h>
#include <stdlib.h>

static inline void pph__say_not_distributed(void)
{
	/* Open MPI's mpirun, MPICH's and Slurm's PMI */
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
	static int said;
	const char *n;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && !said; i++)
		if ((n = getenv(sizes[i])) && atoi(n) > 1) {
			fprintf(stderr, "peppher: warning: started as one of %s MPI ranks, but this program is not built for MPI: each rank runs all of it alone (compose --runtime=starpu-mpi distributes it)\n",
				n);
			said = 1;
		}
}

#endif
