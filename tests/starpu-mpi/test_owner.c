/*
 * <peppher/distributed.h> on every runtime: built against
 * libpeppher-starpu-mpi (-DDISTRIBUTED, run by owner.sh under mpirun on
 * 1, 2 and 4 ranks) and against libpeppher (rank 0 of 1).  A task writes
 * the rank that ran it into its data; every rank then reads the data on
 * the host, so each check below sees where the task ran and that the
 * value reached every rank:
 *
 * - containers are owned round robin in the order they are made, and
 *   their tasks run on the owner; pph_data_set_owner moves them;
 * - a handle registered with a raw pointer is each rank's own: a task on
 *   it runs on every rank, and so do the blocks of a partitioned call on
 *   it, each rank's on its own memory;
 * - blocks of a partition are owned cyclically, tiles 2-D block-cyclic
 *   over the squarest P x Q grid, a single row or column of tiles
 *   cyclically as blocks are; untiling brings every tile to every rank;
 * - bad owners are refused with -EINVAL, a partitioned handle with -EBUSY;
 * - contributions to a reduction run on the result's owner, reading blocks
 *   owned elsewhere, and every rank reads the combined value.
 *
 * Usage: test_owner [expected number of ranks [app-mpi]]; app-mpi: the
 * program initialises and finalizes MPI itself, around pph_init and
 * pph_shutdown, which leave it to it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <peppher/containers.h>
#include <peppher/wrappers.h>

#ifdef DISTRIBUTED
#include <mpi.h>
#endif

static int failures, checks, me;

#define CHECK(cond)                                                                         \
	do {                                                                                \
		checks++;                                                                   \
		if (!(cond)) {                                                              \
			failures++;                                                         \
			printf("rank %d: %s:%d: check failed: %s\n", me, __FILE__, __LINE__, #cond); \
		}                                                                           \
	} while (0)

/* writes the rank running it into every element of a vector or matrix of doubles */
static void stamp_vector(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	for (size_t i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] = pph_mpi_rank();
}

static void stamp_matrix(void *buffers[], void *arg)
{
	double *x = PPH_MATRIX_PTR(buffers[0]);
	size_t ld = PPH_MATRIX_LD(buffers[0]);

	(void)arg;
	for (size_t i = 0; i < PPH_MATRIX_ROWS(buffers[0]); i++)
		for (size_t j = 0; j < PPH_MATRIX_COLS(buffers[0]); j++)
			x[i * ld + j] = pph_mpi_rank();
}

static const struct pph_impl vector_impls[] = { { PPH_ARCH_CPU, stamp_vector, "stamp_vector", 0 } };
static const struct pph_codelet vector_cl = { "stamp_vector", 1, vector_impls, PPH_MODEL_HISTORY };
/* x = 2 x + 1 */
static void affine_vector(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	for (size_t i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] = 2 * x[i] + 1;
}

static const struct pph_impl affine_impls[] = { { PPH_ARCH_CPU, affine_vector, "affine_vector", 0 } };
static const struct pph_codelet affine_cl = { "affine_vector", 1, affine_impls, PPH_MODEL_HISTORY };
static const struct pph_impl matrix_impls[] = { { PPH_ARCH_CPU, stamp_matrix, "stamp_matrix", 0 } };
static const struct pph_codelet matrix_cl = { "stamp_matrix", 1, matrix_impls, PPH_MODEL_HISTORY };

/* as an entry wrapper does: the container's host copy is stale from now on */
static int stamp(const struct pph_codelet *cl, struct pph_container *c)
{
	static const enum pph_access w[1] = { PPH_W };
	pph_data_handle h = pph_container_use(c, PPH_W);

	return pph_call_async(cl, PPH_ALL_IMPLS, 1, &h, w, NULL, 0);
}

/* every element of v is value, on this rank's host */
static int all_equal(pph_vector *v, double value)
{
	const double *x = pph_vector_read(v);

	for (size_t i = 0; x && i < v->n; i++)
		if (x[i] != value)
			return 0;
	return x != NULL;
}

static void containers(int size)
{
	pph_vector *v[3];

	for (int k = 0; k < 3; k++) {
		v[k] = pph_vector_create_double(8);
		CHECK(v[k] && pph_data_owner(v[k]->c.handle) == k % size);
	}
	for (int k = 0; k < 3; k++)
		CHECK(stamp(&vector_cl, &v[k]->c) == 0);
	for (int k = 0; k < 3; k++)
		CHECK(all_equal(v[k], k % size));
	/* moved: the next task runs on the new owner */
	CHECK(pph_data_set_owner(v[0]->c.handle, size - 1) == 0);
	CHECK(pph_data_owner(v[0]->c.handle) == size - 1);
	CHECK(stamp(&vector_cl, &v[0]->c) == 0);
	CHECK(all_equal(v[0], size - 1));
	CHECK(pph_data_set_owner(v[0]->c.handle, size) == -EINVAL);
	CHECK(pph_data_set_owner(v[0]->c.handle, -1) == -EINVAL);
	CHECK(pph_data_set_owner(NULL, 0) == -EINVAL);
	for (int k = 0; k < 3; k++)
		pph_vector_destroy(v[k]);
}

static void raw_pointer(void)
{
	double x[4] = { -1, -1, -1, -1 };
	static const enum pph_access w[1] = { PPH_W };
	pph_data_handle h;

	CHECK(pph_vector_register(&h, x, 4, sizeof(double)) == 0);
#ifdef DISTRIBUTED
	CHECK(pph_data_owner(h) == -1);
	CHECK(pph_data_set_owner(h, 0) == -EINVAL);
#else
	CHECK(pph_data_owner(h) == 0);
#endif
	CHECK(pph_call_sync(&vector_cl, PPH_ALL_IMPLS, 1, &h, w, NULL, 0) == 0);
	pph_data_unregister(h);
	CHECK(x[0] == me && x[3] == me); /* ran here, on this rank's own data */
}

/* A partitioned call on a raw pointer: every rank's blocks are of its own
 * memory (they were owned cyclically, each computed from its owner's
 * array and sent to the others). */
static void raw_pointer_partitioned(void)
{
	enum { N = 24 };
	static const enum pph_access rw[1] = { PPH_RW };
	static const int parts[1] = { 6 };
	double x[N];
	pph_data_handle h;
	int wrong = 0;

	for (int i = 0; i < N; i++)
		x[i] = me * 1000.0 + i;
	CHECK(pph_vector_register(&h, x, N, sizeof(double)) == 0);
	CHECK(pph_call_partitioned(&affine_cl, PPH_ALL_IMPLS, 1, &h, rw, parts, NULL, 0) == 0);
	pph_data_unregister(h);
	for (int i = 0; i < N; i++)
		wrong += x[i] != 2 * (me * 1000.0 + i) + 1;
	CHECK(wrong == 0);
}

static void blocks(int size)
{
	enum { NB = 6 };
	pph_vector *v = pph_vector_create_double(NB * 3);
	pph_data_handle b[NB];
	struct pph_container block[NB];
	const double *x;

	CHECK(v && pph_data_partition(v->c.handle, NB, b) == 0);
#ifdef DISTRIBUTED /* libpeppher's rank 0 of 1 has nothing to move */
	CHECK(pph_data_set_owner(v->c.handle, 0) == -EBUSY);
#endif
	for (int k = 0; k < NB; k++) {
		CHECK(pph_data_owner(b[k]) == k % size);
		block[k] = (struct pph_container){ .handle = b[k], .host = PPH_HOST_NONE };
		CHECK(stamp(&vector_cl, &block[k]) == 0);
	}
	pph_data_unpartition(v->c.handle, NB, b);
	v->c.host = PPH_HOST_NONE; /* as pph_matrix_untile does */
	x = pph_vector_read(v);
	for (int k = 0; x && k < NB * 3; k++)
		CHECK(x[k] == (k / 3) % size);
	pph_vector_destroy(v);
}

static void tiles(int size)
{
	enum { NT = 5 };
	pph_matrix *m = pph_matrix_create(NT * 2, NT * 3, sizeof(double));
	pph_matrix_tiles *t = m ? pph_matrix_tile_grid(m, 2, 3) : NULL;
	const double *x;
	int p = 1, q;

	for (int d = 1; d * d <= size; d++)
		if (size % d == 0)
			p = d;
	q = size / p;
	CHECK(t != NULL);
	if (!t)
		return;
	for (int i = 0; i < NT; i++)
		for (int j = 0; j < NT; j++) {
			pph_matrix *tile = pph_matrix_tile(t, i, j);

			CHECK(pph_data_owner(tile->c.handle) == (i % p) * q + j % q);
			CHECK(stamp(&matrix_cl, &tile->c) == 0);
		}
	pph_matrix_untile(t);
	x = pph_matrix_read(m);
	for (int r = 0; x && r < NT * 2; r++)
		for (int c = 0; c < NT * 3; c++)
			CHECK(x[r * NT * 3 + c] == ((r / 2) % p) * q + (c / 3) % q);
	pph_matrix_destroy(m);
}

/* A single row (across) or column of NT tiles of 2 x 3: owned 1-D
 * cyclically over every rank, as blocks are, whatever the grid of ranks
 * (a column of 5 on 4 ranks was 0 1 2 3 0, a row 0 1 0 1 0). */
static void tile_line(int size, int across)
{
	enum { NT = 5 };
	size_t rows = across ? 2 : NT * 2, cols = across ? NT * 3 : 3;
	pph_matrix *m = pph_matrix_create(rows, cols, sizeof(double));
	pph_matrix_tiles *t = m ? pph_matrix_tile_grid(m, 2, 3) : NULL;
	const double *x;

	CHECK(t != NULL);
	if (!t)
		return;
	for (int k = 0; k < NT; k++) {
		pph_matrix *tile = across ? pph_matrix_tile(t, 0, k) : pph_matrix_tile(t, k, 0);

		CHECK(pph_data_owner(tile->c.handle) == k % size);
		CHECK(stamp(&matrix_cl, &tile->c) == 0);
	}
	pph_matrix_untile(t);
	x = pph_matrix_read(m);
	for (size_t r = 0; x && r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			CHECK(x[r * cols + c] == (int)(across ? c / 3 : r / 2) % size);
	pph_matrix_destroy(m);
}

/* sum += the block's elements; owner max= the rank running it */
static void contribute(void *buffers[], void *arg)
{
	const double *x = PPH_VECTOR_PTR(buffers[0]);
	double *sum = PPH_VARIABLE_PTR(buffers[1]);
	int *ran_on = PPH_VARIABLE_PTR(buffers[2]);

	(void)arg;
	for (size_t i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		*sum += x[i];
	if (pph_mpi_rank() > *ran_on)
		*ran_on = pph_mpi_rank();
}

static const struct pph_impl contribute_impls[] = { { PPH_ARCH_CPU, contribute, "contribute", 0 } };
static const struct pph_codelet contribute_cl = { "contribute", 1, contribute_impls,
						  PPH_MODEL_HISTORY };

static void reduction(int size)
{
	enum { NB = 6 };
	static const enum pph_access modes[3] = { PPH_R, PPH_REDUX, PPH_REDUX };
	pph_vector *v = pph_vector_create_double(NB * 3);
	pph_scalar *sum = pph_scalar_create_double(), *ran_on = pph_scalar_create_int();
	pph_data_handle b[NB];
	double *x = v ? pph_vector_write(v) : NULL;
	int owner;

	CHECK(x && sum && ran_on);
	if (!x || !sum || !ran_on)
		return;
	for (int i = 0; i < NB * 3; i++)
		x[i] = i;
	PPH_SCALAR_SET(sum, double, 5);
	PPH_SCALAR_SET(ran_on, int, -1);
	owner = pph_data_owner(ran_on->c.handle);
	CHECK(pph_data_set_reduction(sum->c.handle,
				     pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_DOUBLE)) == 0);
	CHECK(pph_data_set_reduction(ran_on->c.handle,
				     pph_reduction_builtin(PPH_REDUCTION_MAX, PPH_TYPE_INT)) == 0);
	/* the two results have one owner: the contributions run there */
	CHECK(pph_data_set_owner(sum->c.handle, owner) == 0);
	CHECK(pph_data_partition(pph_container_use(&v->c, PPH_R), NB, b) == 0);
	for (int k = 0; k < NB; k++) {
		pph_data_handle h[3] = { b[k], pph_container_use(&sum->c, PPH_REDUX),
					 pph_container_use(&ran_on->c, PPH_REDUX) };

		CHECK(pph_call_async(&contribute_cl, PPH_ALL_IMPLS, 3, h, modes, NULL, 0) == 0);
	}
	pph_data_unpartition(v->c.handle, NB, b);
	CHECK(PPH_SCALAR_GET(sum, double) == 5 + (NB * 3 - 1) * NB * 3 / 2);
	CHECK(PPH_SCALAR_GET(ran_on, int) == owner);
	pph_vector_destroy(v);
	pph_scalar_destroy(sum);
	pph_scalar_destroy(ran_on);
	(void)size;
}

int main(int argc, char **argv)
{
	int size, expected = argc > 1 ? atoi(argv[1]) : 1, app_mpi = argc > 2;

#ifdef DISTRIBUTED
	int provided, finalized = 0;

	if (app_mpi && MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
		return 1;
#else
	if (app_mpi)
		return 2;
#endif
	if (pph_init() != 0)
		return 1;
	me = pph_mpi_rank();
	size = pph_mpi_size();
	CHECK(size == expected && me >= 0 && me < size);
	containers(size);
	raw_pointer();
	raw_pointer_partitioned();
	blocks(size);
	tiles(size);
	tile_line(size, 0);
	tile_line(size, 1);
	reduction(size);
	pph_shutdown();
#ifdef DISTRIBUTED
	MPI_Finalized(&finalized);
	CHECK(finalized == !app_mpi); /* pph_shutdown finalizes only what pph_init started */
	if (app_mpi)
		MPI_Finalize();
#endif
	printf("rank %d of %d: %d checks, %d failed%s\n", me, size, checks, failures,
	       app_mpi ? " (MPI started by the program)" : "");
	return failures != 0;
}
