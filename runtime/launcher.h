/*
 * A program not built for MPI started by an MPI launcher: every rank runs
 * the whole program on its own, N copies of one run, which nothing else
 * would say.  libpeppher and libpeppher-starpu (one process) warn at
 * pph_init; libpeppher-starpu-mpi is the runtime that distributes.
 *
 * A program that starts MPI itself is a hybrid one: its ranks share the
 * work through their own MPI calls, each calling components on its own
 * data, and the warning would be wrong on every rank, with no way to
 * silence it.  Such a program may start MPI after pph_init (a legacy MPI
 * program PEPPHER-ized has PEPPHER_INITIALIZE() first in main, before its
 * MPI_Init): one that links MPI without having started it at pph_init is
 * warned at pph_shutdown if it never did.  The runtime does not link MPI:
 * it looks MPI_Initialized up in the program (as workers.c finds libgomp).
 */
#ifndef PPH_LAUNCHER_H
#define PPH_LAUNCHER_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The number of ranks an MPI launcher started (Open MPI's mpirun,
 * MPICH's and Slurm's PMI), and this process's rank: 1 and 0 without one. */
static inline int pph__launcher_size(int *rank)
{
	static const char *const vars[][2] = { { "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK" },
					       { "PMI_SIZE", "PMI_RANK" } };
	const char *n, *r;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if ((n = getenv(vars[i][0])) && atoi(n) > 1) {
			r = getenv(vars[i][1]);
			*rank = r ? atoi(r) : 0;
			return atoi(n);
		}
	*rank = 0;
	return 1;
}

/* 1: the program has started MPI (MPI_Initialized stays true after
 * MPI_Finalize); 0: it links MPI, not started yet; -1: it does not link MPI. */
static inline int pph__mpi_started(void)
{
	typedef int (*initialized_fn)(int *);
	initialized_fn initialized = (initialized_fn)dlsym(RTLD_DEFAULT, "MPI_Initialized");
	int flag = 0;

	if (!initialized)
		return -1;
	return initialized(&flag) == 0 && flag;
}

/* At pph_init (at_end 0) and at pph_shutdown (at_end 1). */
static inline void pph__say_not_distributed(int at_end)
{
	static int said;
	int rank, n = pph__launcher_size(&rank), started;

	if (n <= 1 || said)
		return;
	started = pph__mpi_started();
	if (started < 0 || (started == 0 && at_end)) {
		fprintf(stderr, "peppher: warning: started as one of %d MPI ranks, but this program is not built for MPI: each rank runs all of it alone (compose --runtime=starpu-mpi distributes it; a program that starts MPI itself is not warned)\n",
			n);
		said = 1;
	}
}

#endif
