/*
 * What each rank of libpeppher-starpu-mpi starts with, and what the ranks
 * must agree on (ranks.sh runs it, under mpirun or alone).
 *
 * test_ranks workers: the workers this rank started ("rank R of N: cpu C
 * opencl O"), and a component with a CPU variant only, called on a
 * container and on a raw pointer, runs: with the count of CPU workers
 * left to StarPU, a core for StarPU-MPI's thread and one per device
 * worker left none (on 1 core, or 2 with PoCL), and every call failed.
 *
 * test_ranks blocks: partitioned calls of a block per worker, on ranks
 * with different numbers of workers: every rank makes as many blocks.
 *
 * test_ranks opencl: a component with an OpenCL variant only; ranks.sh
 * starts one rank with OpenCL workers and one without (the job ends), and
 * both without (every call fails, on every rank, and the program goes on).
 *
 * test_ranks level [single|serialized|multiple]: the thread level MPI runs
 * at ("rank R of N: thread level L"); with a level, the program starts MPI
 * itself at that level before pph_init, and finalizes it after
 * pph_shutdown.
 *
 * test_ranks threads|threads-serial|threads-raw: two application threads
 * making containers and calls, at once or one after the other, or calls
 * on raw pointers alone, at once.
 *
 * Each mode ends with "rank R of N: MODE: C checks, F failed"; pph_init
 * failing exits with status 2.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <peppher/containers.h>
#include <peppher/distributed.h>
#include <peppher/wrappers.h>

static int failures, checks; /* atomic: threads() checks from two threads */
static int app_level = -1; /* the thread level the program started MPI at, or -1: pph_init did */

#define CHECK(cond)                                                                         \
	do {                                                                                \
		__atomic_add_fetch(&checks, 1, __ATOMIC_RELAXED);                           \
		if (!(cond)) {                                                              \
			__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);                 \
			printf("rank %d: %s:%d: check failed: %s\n", pph_mpi_rank(), __FILE__, \
			       __LINE__, #cond);                                            \
		}                                                                           \
	} while (0)

/* x = x + 1, on the CPU only */
static void increment(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	for (size_t i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] += 1;
}

static const struct pph_impl increment_impls[] = { { PPH_ARCH_CPU, increment, "increment_cpu", 0 } };
static const struct pph_codelet increment_cl = { "increment", 1, increment_impls, PPH_MODEL_HISTORY };
static const enum pph_access rw[1] = { PPH_RW };

static void workers(void)
{
	double x[8] = { 0 };
	pph_vector *v = pph_vector_create_double(64);
	pph_data_handle h;
	size_t i;
	int k;

	printf("rank %d of %d: cpu %u opencl %u\n", pph_mpi_rank(), pph_mpi_size(),
	       pph_worker_count_arch(PPH_ARCH_CPU), pph_worker_count_arch(PPH_ARCH_OPENCL));
	CHECK(pph_worker_count_arch(PPH_ARCH_CPU) >= 1);
	CHECK(v != NULL);
	for (k = 0; v && k < 3; k++) {
		h = pph_container_use(&v->c, PPH_RW);
		CHECK(pph_call_sync(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
	}
	for (i = 0; v && i < 64; i++)
		CHECK(PPH_VECTOR_GET(v, double, i) == 3);
	pph_vector_destroy(v);
	CHECK(pph_vector_register(&h, x, 8, sizeof(double)) == 0);
	CHECK(pph_call_sync(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
	pph_data_unregister(h);
	CHECK(x[0] == 1 && x[7] == 1);
}

/*
 * Partitioned calls of "a block per worker" (parts 0) on a container and
 * on a raw pointer: every rank makes as many blocks whatever its own
 * workers (ranks.sh starts them with 1 and 2 CPU workers).
 */
static void blocks(void)
{
	const int parts[1] = { 0 };
	double x[100] = { 0 };
	pph_vector *v = pph_vector_create_double(1000);
	pph_data_handle h;
	size_t i;
	int k;

	CHECK(v != NULL);
	CHECK(pph_vector_register(&h, x, 100, sizeof(double)) == 0);
	for (k = 0; v && k < 5; k++) {
		pph_data_handle hv = pph_container_use(&v->c, PPH_RW);

		CHECK(pph_call_partitioned(&increment_cl, PPH_ALL_IMPLS, 1, &hv, rw, parts, NULL, 0) == 0);
		CHECK(pph_call_partitioned(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, parts, NULL, 0) == 0);
	}
	for (i = 0; v && i < 1000; i++)
		CHECK(PPH_VECTOR_GET(v, double, i) == 5);
	pph_data_unregister(h);
	for (i = 0; i < 100; i++)
		CHECK(x[i] == 5);
	pph_vector_destroy(v);
}

/* an OpenCL variant that leaves its data as they are */
static void untouched(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static const struct pph_impl opencl_impls[] = { { PPH_ARCH_OPENCL, untouched, "untouched_opencl", 0 } };
static const struct pph_codelet opencl_cl = { "opencl_only", 1, opencl_impls, PPH_MODEL_HISTORY };

/*
 * A component with an OpenCL variant only, called on containers owned by
 * each rank and on a raw pointer: where a rank has no OpenCL worker and
 * another has, the job ends (ranks.sh); where no rank has one, the call
 * fails on every rank (-ENODEV) and the program goes on: "rank R: went on".
 */
static void opencl_only(void)
{
	double x[4] = { 0 };
	pph_vector *v[2] = { pph_vector_create_double(16), pph_vector_create_double(16) };
	pph_data_handle h;
	int k, rc;

	printf("rank %d of %d: cpu %u opencl %u\n", pph_mpi_rank(), pph_mpi_size(),
	       pph_worker_count_arch(PPH_ARCH_CPU), pph_worker_count_arch(PPH_ARCH_OPENCL));
	fflush(stdout);
	for (k = 0; k < 2; k++) {
		h = pph_container_use(&v[k]->c, PPH_RW);
		rc = pph_call_sync(&opencl_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0);
		CHECK(rc == (pph_worker_count_arch(PPH_ARCH_OPENCL) ? 0 : -ENODEV));
		CHECK(PPH_VECTOR_GET(v[k], double, 0) == 0);
	}
	CHECK(pph_vector_register(&h, x, 4, sizeof(double)) == 0);
	rc = pph_call_sync(&opencl_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0);
	CHECK(rc == (pph_worker_count_arch(PPH_ARCH_OPENCL) ? 0 : -ENODEV));
	pph_data_unregister(h);
	pph_vector_destroy(v[0]);
	pph_vector_destroy(v[1]);
	printf("rank %d: went on\n", pph_mpi_rank());
}

/* A thread's rounds: two containers, calls on them, a host read, a call
 * on a raw pointer. */
static void *rounds(void *arg)
{
	int id = (int)(long)arg, k;

	for (k = 0; k < 20; k++) {
		double x[8] = { 0 };
		pph_vector *v = pph_vector_create_double(100 + 37 * (size_t)id);
		pph_vector *w = pph_vector_create_double(50);
		pph_data_handle h;

		CHECK(v && w);
		if (!v || !w)
			break;
		h = pph_container_use(&v->c, PPH_RW);
		CHECK(pph_call_sync(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
		h = pph_container_use(&w->c, PPH_RW);
		CHECK(pph_call_async(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
		CHECK(PPH_VECTOR_GET(v, double, 99) == 1 && PPH_VECTOR_GET(w, double, 49) == 1);
		CHECK(pph_vector_register(&h, x, 8, sizeof(double)) == 0);
		CHECK(pph_call_sync(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
		pph_data_unregister(h);
		CHECK(x[7] == 1);
		pph_vector_destroy(w);
		pph_vector_destroy(v);
	}
	return NULL;
}

/* A thread's rounds on raw pointers alone (each rank's own data): whole
 * and partitioned calls. */
static void *rounds_raw(void *arg)
{
	const int parts[1] = { 0 };
	int k;

	(void)arg;
	for (k = 0; k < 50; k++) {
		double x[64] = { 0 };
		pph_data_handle h;

		CHECK(pph_vector_register(&h, x, 64, sizeof(double)) == 0);
		CHECK(pph_call_sync(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
		CHECK(pph_call_partitioned(&increment_cl, PPH_ALL_IMPLS, 1, &h, rw, parts, NULL, 0) == 0);
		pph_data_unregister(h);
		CHECK(x[0] == 2 && x[63] == 2);
	}
	return NULL;
}

/*
 * Two application threads making their rounds at once, or one after the
 * other (serial): at once, the ranks would number and order their data
 * and calls each in its own threads' order; on more than one rank the job
 * ends saying so (ranks.sh).  Rounds on raw pointers alone (raw) touch
 * nothing the ranks share: they may run at once.
 */
static void threads(int serial, int raw)
{
	pthread_t t[2];
	long i;

	for (i = 0; i < 2; i++) {
		CHECK(pthread_create(&t[i], NULL, raw ? rounds_raw : rounds, (void *)i) == 0);
		if (serial)
			pthread_join(t[i], NULL);
	}
	for (i = 0; !serial && i < 2; i++)
		pthread_join(t[i], NULL);
}

/* The thread level MPI runs at: MPI_THREAD_MULTIPLE where pph_init
 * started MPI, so that the program may call MPI too. */
static void thread_level(void)
{
	int level = -1;

	MPI_Query_thread(&level);
	printf("rank %d of %d: thread level %d\n", pph_mpi_rank(), pph_mpi_size(), level);
	CHECK(level >= MPI_THREAD_SERIALIZED || app_level >= 0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "workers";
	int provided;

	/* MODE LEVEL: the program starts MPI itself at LEVEL before pph_init */
	if (argc > 2)
		app_level = strcmp(argv[2], "single") == 0	 ? MPI_THREAD_SINGLE :
			    strcmp(argv[2], "serialized") == 0 ? MPI_THREAD_SERIALIZED :
								 MPI_THREAD_MULTIPLE;
	if (app_level >= 0 && MPI_Init_thread(&argc, &argv, app_level, &provided) != MPI_SUCCESS)
		return 3;
	if (pph_init() != 0)
		return 2;
	if (strcmp(mode, "workers") == 0)
		workers();
	else if (strcmp(mode, "blocks") == 0)
		blocks();
	else if (strcmp(mode, "opencl") == 0)
		opencl_only();
	else if (strcmp(mode, "level") == 0)
		thread_level();
	else if (strncmp(mode, "threads", 7) == 0)
		threads(strcmp(mode, "threads-serial") == 0, strcmp(mode, "threads-raw") == 0);
	else
		CHECK(!"a known mode");
	printf("rank %d of %d: %s: %d checks, %d failed\n", pph_mpi_rank(), pph_mpi_size(), mode,
	       checks, failures);
	pph_shutdown();
	if (app_level >= 0)
		MPI_Finalize();
	return failures ? 1 : 0;
}
