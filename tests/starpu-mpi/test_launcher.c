/*
 * libpeppher (not built for MPI) under mpirun (launcher.sh): test_launcher
 * mpi starts MPI itself before pph_init, as a hybrid program whose ranks
 * each call components on their own data does; test_launcher late after
 * it, as a legacy MPI program PEPPHER-ized does (PEPPHER_INITIALIZE() first
 * in main); test_launcher plain does not.  Each rank makes a few calls and prints "rank R of N: done" (R, N
 * from MPI, or from the launcher's environment for plain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <peppher/wrappers.h>

static void twice(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	for (size_t i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] *= 2;
}

static const struct pph_impl twice_impls[] = { { PPH_ARCH_CPU, twice, "twice_cpu", 0 } };
static const struct pph_codelet twice_cl = { "twice", 1, twice_impls, PPH_MODEL_HISTORY };

int main(int argc, char **argv)
{
	const enum pph_access rw[1] = { PPH_RW };
	int late = argc > 1 && strcmp(argv[1], "late") == 0;
	int mpi = late || (argc > 1 && strcmp(argv[1], "mpi") == 0), rank = 0, size = 1, k;
	double x[16];
	pph_data_handle h;

	if (late && pph_init() != 0)
		return 2;
	if (mpi) {
		MPI_Init(&argc, &argv);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		MPI_Comm_size(MPI_COMM_WORLD, &size);
	} else if (getenv("OMPI_COMM_WORLD_RANK")) {
		rank = atoi(getenv("OMPI_COMM_WORLD_RANK"));
		size = atoi(getenv("OMPI_COMM_WORLD_SIZE"));
	}
	if (!late && pph_init() != 0)
		return 2;
	for (k = 0; k < 16; k++)
		x[k] = 1;
	for (k = 0; k < 4; k++)
		if (pph_vector_register(&h, x, 16, sizeof(double)) == 0) {
			pph_call_sync(&twice_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0);
			pph_data_unregister(h);
		}
	pph_shutdown();
	printf("rank %d of %d: %s\n", rank, size, x[15] == 16 ? "done" : "wrong");
	if (mpi)
		MPI_Finalize();
	return x[15] == 16 ? 0 : 1;
}
