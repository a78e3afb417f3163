/*
 * libpeppher-starpu-mpi: the steps a distributed run adds to
 * libpeppher-starpu (the rest of starpu/ is the same source).  Every rank
 * runs the application's main, so every rank registers, partitions and
 * submits the same things in the same order: tags are a counter (of the
 * distributed data: a handle each rank keeps has none), and each
 * decision below depends only on what every rank knows.
 *
 * A handle registered with a raw pointer stays each rank's own
 * (STARPU_MPI_PER_NODE).  A container's handle and each block or tile of a
 * partition get an owner: containers round robin in the order they are
 * made, blocks cyclic, tiles 2-D block-cyclic over a P x Q grid of ranks
 * (a single row or column of tiles cyclic, as blocks).
 * Data is the same on every rank when it is registered (every rank made
 * it the same way): StarPU-MPI's cache is told so, and moves nothing until
 * a task writes it.  A task that writes only data of one owner runs there
 * (starpu_mpi_task_build: StarPU-MPI sends what it reads); any other task
 * (it writes a rank's own data, data of several owners, or nothing) runs
 * on every rank, after what it uses has been brought to every rank.  Host
 * access and unpartitioning bring the current value to every rank, so
 * that every rank's main sees the same data (doc/distributed.md).
 *
 * A call made inside a variant (a nested call) runs on the one rank that
 * runs the variant: what it registers and partitions stays that rank's
 * own, and its tasks run there.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <starpu_mpi.h>

#include "internal.h"

#define COMM MPI_COMM_WORLD

const char sp__library[] = "libpeppher-starpu-mpi";

static int my_rank, nranks = 1;
static int grid_p = 1, grid_q = 1; /* ranks of the tile grid: P x Q */
static starpu_mpi_tag_t next_tag;
static unsigned next_container; /* the round robin of containers' owners */
static int mpi_ours;		/* pph_init called MPI_Init: pph_shutdown finalizes */
static unsigned workers_per_rank; /* the fewest workers of a rank (agree) */
static unsigned most_workers[SP_NKINDS]; /* of each kind, the most a rank has (agree) */

/* a step every rank must take in the same order: one thread at a time */
static void ordered(const char *what);

/* A count of ranks at *s, digits only (no blank nor sign, which sscanf's
 * %d let by: " 1x1" was taken), moving *s past it; -1 when none. */
static int grid_count(const char **s)
{
	long v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	while (**s >= '0' && **s <= '9') {
		v = v * 10 + (**s - '0');
		if (v > nranks)
			return -1;
		(*s)++;
	}
	return (int)v;
}

/* PEPPHER_MPI_GRID=PxQ (or PXQ), or the squarest P x Q = nranks with P <= Q. */
static int grid_choose(void)
{
	const char *s = getenv("PEPPHER_MPI_GRID"), *c = s;
	int p, q = -1;

	if (s && *s) {
		p = grid_count(&c);
		if (p >= 0 && (*c == 'x' || *c == 'X')) {
			c++;
			q = grid_count(&c);
		}
		if (p < 1 || q < 1 || *c || p * q != nranks) {
			sp__init_failed("PEPPHER_MPI_GRID=%s: expected PxQ with P*Q = %d ranks (P and Q in digits, x or X between)",
					s, nranks);
			return -EINVAL;
		}
		grid_p = p;
		grid_q = q;
		return 0;
	}
	for (p = 1; p * p <= nranks; p++)
		if (nranks % p == 0)
			grid_p = p;
	grid_q = nranks / grid_p;
	return 0;
}

/*
 * The ranks of one machine share StarPU's home: the first to start writes
 * the bus calibration files there, and another reading them half-written
 * fails an assertion.  StarPU starts one rank at a time (an exclusive lock
 * on a file next to them); MPI is started first, since MPI_Init waits for
 * every rank.
 */
static int home_lock(void)
{
	const char *dir = getenv("STARPU_HOME");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = getenv("HOME");
	snprintf(path, sizeof(path), "%s/.peppher-starpu-mpi.lock", dir && *dir ? dir : "/tmp");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
		close(fd);
		fd = -1;
	}
	return fd; /* -1: unlocked, StarPU may still cope */
}

static void home_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* drops the lock */
}

/*
 * Every rank's pph_init succeeds, or none: a rank whose start failed (a
 * PEPPHER_MPI_GRID of its own, starpu_init) said why and stopped, while
 * the others started StarPU-MPI and waited for it, and it for them: it
 * hung in starpu_mpi_shutdown's barrier, they in their first transfer.
 * Before StarPU-MPI's thread calls MPI (any thread level will do), each
 * rank tells the others whether it started: rc, or -ECANCELED where
 * another rank did not, naming the first.
 *
 * And the fewest workers a rank has: pph_call_partitioned's "a block per
 * worker" is that many blocks per rank on every rank.  Each rank counted
 * its own (PEPPHER_NCPU=1 on one rank, 2 on another): the ranks
 * partitioned into different numbers of blocks, registered with
 * different tags, and StarPU-MPI failed an assertion (MPI_ERR_TRUNCATE).
 */
static int agree(int rc)
{
	/* MIN of each; a maximum is the MIN of its negation */
	int mine[2 + SP_NKINDS] = { rc == 0 ? INT_MAX : my_rank,
				    rc == 0 ? (int)starpu_worker_get_count() : INT_MAX },
	    all[2 + SP_NKINDS], first, k;

	if (rc == 0) {
		mine[2 + SP_CPU] = -(int)starpu_cpu_worker_get_count();
		mine[2 + SP_OPENCL] = -(int)starpu_opencl_worker_get_count();
		mine[2 + SP_CUDA] = -(int)starpu_cuda_worker_get_count();
	}
	if (MPI_Allreduce(mine, all, 2 + SP_NKINDS, MPI_INT, MPI_MIN, COMM) != MPI_SUCCESS) {
		if (rc == 0)
			sp__init_failed("MPI_Allreduce failed: the ranks cannot agree to start");
		return rc ? rc : -EIO;
	}
	workers_per_rank = (unsigned)all[1];
	for (k = 0; k < SP_NKINDS; k++)
		most_workers[k] = (unsigned)-all[2 + k];
	first = all[0];
	if (rc == 0 && first != INT_MAX) {
		sp__init_failed("rank %d of %d could not start the runtime (it says why): no rank starts it",
				first, nranks);
		return -ECANCELED;
	}
	return rc;
}

static void engine_mpi_finalize(void)
{
	if (mpi_ours)
		MPI_Finalize();
	mpi_ours = 0;
}

static const char *thread_level_name(int level)
{
	switch (level) {
	case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
	case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
	case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
	case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
	default: return "an unknown thread level";
	}
}

/*
 * StarPU-MPI calls MPI from its own thread, not the one that initialized
 * MPI: it needs MPI_THREAD_SERIALIZED at least, MPI_THREAD_MULTIPLE where
 * the program calls MPI too while the runtime runs.  StarPU says so only
 * when it is not silent (STARPU_SILENT=1 here): a program that started
 * MPI with MPI_Init (SINGLE) ran on without a word.
 */
static void check_thread_level(int provided)
{
	if (provided >= MPI_THREAD_SERIALIZED)
		return;
	fprintf(stderr, "peppher: warning: MPI runs at %s%s: StarPU-MPI calls MPI from a thread of its own, which needs MPI_THREAD_SERIALIZED, and MPI_THREAD_MULTIPLE where the program calls MPI itself between pph_init and pph_shutdown (MPI_Init_thread)\n",
		thread_level_name(provided), mpi_ours ? " (pph_init asked for MPI_THREAD_MULTIPLE)" : "");
}

int sp__engine_start(struct starpu_conf *conf)
{
	int initialized = 0, finalized = 0, provided, reserved, rc, fd;

	/* ranks share the machine's cores: binding every rank's first worker
	 * to the first core would stack them there */
	setenv("STARPU_WORKERS_NOBIND", "1", 0);
	sp__memory_defaults();
	MPI_Finalized(&finalized);
	if (finalized) {
		sp__init_failed("MPI was finalized: a process can run pph_init once");
		return -EALREADY;
	}
	MPI_Initialized(&initialized);
	if (!initialized) {
		/* StarPU-MPI's progress thread calls MPI while the program's
		 * threads may (doc/distributed.md): SERIALIZED, asked before,
		 * forbade the program's calls */
		if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
			sp__init_failed("MPI_Init_thread failed");
			return -EIO;
		}
		mpi_ours = 1;
	} else {
		MPI_Query_thread(&provided);
	}
	check_thread_level(provided);
	/*
	 * starpu_mpi_init_conf in its two steps, StarPU then StarPU-MPI's
	 * thread, so that a start of StarPU that made no CPU worker can be
	 * made again with one (sp__starpu_init) before any other rank
	 * depends on this one.  As starpu_mpi_init_conf, a core is kept for
	 * the progress thread where StarPU counts the CPU workers.  Its
	 * driver mode (STARPU_MPI_DRIVER_CALL_FREQUENCY) is set up there
	 * alone: not offered.
	 */
	if (starpu_get_env_number_default("STARPU_MPI_DRIVER_CALL_FREQUENCY", 0) > 0)
		fprintf(stderr, "peppher: warning: STARPU_MPI_DRIVER_CALL_FREQUENCY is not read: StarPU-MPI's progress thread runs\n");
	reserved = conf->ncpus == -1;
	if (reserved)
		conf->reserve_ncpus = conf->reserve_ncpus < 0 ? 1 : conf->reserve_ncpus + 1;
	conf->will_use_mpi = 1;
	MPI_Comm_rank(COMM, &my_rank);
	MPI_Comm_size(COMM, &nranks);
	rc = grid_choose();
	if (rc == 0) {
		fd = home_lock();
		rc = sp__starpu_init(conf, reserved);
		home_unlock(fd);
	}
	rc = agree(rc);
	if (rc == 0 && (rc = starpu_mpi_init_comm(NULL, NULL, 0, COMM)) != 0)
		sp__init_failed("starpu_mpi_init_comm failed: %s", strerror(-rc));
	if (rc != 0) {
		if ((starpu_is_initialized)())
			starpu_shutdown();
		engine_mpi_finalize();
		return rc;
	}
	next_tag = 1;
	next_container = 0;
	return 0;
}

void sp__engine_wait_all(void)
{
	starpu_mpi_wait_for_all(COMM);
}

/* What this rank sent to the others since pph_init (STARPU_COMM_STATS=1). */
static unsigned long long bytes_sent(void)
{
	size_t *sent = calloc((size_t)nranks, sizeof(*sent));
	unsigned long long bytes = 0;
	int r;

	if (sent)
		starpu_mpi_comm_amounts_retrieve(sent); /* zeros without STARPU_COMM_STATS=1 */
	for (r = 0; sent && r < nranks; r++)
		bytes += sent[r];
	free(sent);
	return bytes;
}

static int comm_stats(void)
{
	return starpu_get_env_number("STARPU_COMM_STATS") > 0;
}

/* The volume of a phase of the program (doc/distributed.md compares the
 * tiled Cholesky's with a model): what was sent when it ended. */
void sp__tasks_wait_all(void)
{
	const char *stats = getenv("PEPPHER_STATS");

	ordered("pph_task_wait_all");
	starpu_mpi_wait_for_all(COMM);
	if (stats && strcmp(stats, "1") == 0 && comm_stats())
		fprintf(stderr, "rank %d of %d: %llu bytes sent to other ranks when pph_task_wait_all returned\n",
			my_rank, nranks, bytes_sent());
}

void sp__engine_stop(void)
{
	starpu_mpi_shutdown();
	/* started by sp__engine_start, not by StarPU-MPI */
	if ((starpu_is_initialized)())
		starpu_shutdown();
	engine_mpi_finalize();
}

/* Inside a variant: only this rank makes the call. */
static int nested(void)
{
	return starpu_task_get_current() != NULL;
}

/*
 * Two application threads calling the runtime at once: each rank numbers
 * (tags), places (owners) and orders what it registers and submits in
 * the order its threads happen to make their calls, which differs from
 * rank to rank.  The ranks then disagreed on which data a tag is, and
 * StarPU-MPI failed its assertion (MPI_ERR_TRUNCATE) or the job hung.
 * Each such step (ordered below) marks its thread until the thread leaves
 * its outermost call (sp__leave); a step of another thread meanwhile
 * ends the job saying so.  Two threads' calls that merely follow each
 * other unsynchronized are not seen: the check catches calls that
 * overlap, as those of threads calling at once soon do.  A variant's
 * calls (nested) are its rank's alone, and one rank has no one to
 * disagree with.
 */
static __thread int holding; /* this thread's call made such a step */
static atomic_int holders;   /* threads whose call under way made one */

static void two_threads(const char *what)
{
	fprintf(stderr, "peppher: rank %d of %d: %s from an application thread while another thread's call is under way: every rank must register and call in one order, and threads calling at once do it in an order of their own on each rank (doc/distributed.md, Limits); ending the job (MPI_Abort)\n",
		my_rank, nranks, what);
	fflush(stderr);
	MPI_Abort(COMM, 1);
}

static void ordered(const char *what)
{
	if (nranks <= 1 || holding || nested())
		return;
	if (atomic_fetch_add(&holders, 1) != 0)
		two_threads(what);
	if (sp__inside())
		holding = 1; /* until sp__thread_left */
	else /* containers.c's own step, between two calls */
		atomic_fetch_sub(&holders, 1);
}

void sp__thread_left(void)
{
	if (holding) {
		holding = 0;
		atomic_fetch_sub(&holders, 1);
	}
}

static int distributed(const struct pph_data *d)
{
	return d->h && starpu_mpi_data_get_rank(d->h) >= 0; /* not host data (data.c) */
}

/* Every rank holds the current value of d: tell StarPU-MPI's cache, so
 * that nothing moves until a task writes it. */
static void mark_everywhere(struct pph_data *d)
{
	int owner = starpu_mpi_data_get_rank(d->h), r;

	if (owner != my_rank) {
		starpu_mpi_cached_receive_set(d->h);
		return;
	}
	for (r = 0; r < nranks; r++)
		if (r != my_rank)
			starpu_mpi_cached_send_set(d->h, r);
}

/* d gets an owner, and its tag, the next of the counter every rank
 * advances alike (only distributed data moves, so only it has one). */
static void make_distributed(struct pph_data *d, int owner)
{
	starpu_mpi_data_register_comm(d->h, __atomic_fetch_add(&next_tag, 1, __ATOMIC_RELAXED), owner,
				      COMM);
	mark_everywhere(d);
}

unsigned sp__workers_per_rank(void)
{
	return workers_per_rank;
}

unsigned sp__ranks_sharing(const struct pph_data *d)
{
	return distributed(d) && !nested() ? (unsigned)nranks : 1;
}

/*
 * Each rank's own, without a tag (it never moves), until a container or a
 * partition makes it distributed: a raw pointer that one thread
 * registered while another made a container took a tag of the ranks'
 * common counter, in an order of its own on each rank; now a thread
 * calling components on raw pointers alone takes no step the ranks must
 * take in one order, and may call while another thread does.
 */
void sp__registered(struct pph_data *d)
{
	starpu_mpi_data_register_comm(d->h, -1, STARPU_MPI_PER_NODE, COMM);
}

/* Called by containers/containers.c (starpu/containers_shim.h) when the
 * handle it registered is a container's. */
int sp__container_registered(int rc, pph_data_handle *handle)
{
	if (rc == 0 && !nested()) {
		ordered("creating a container");
		make_distributed(*handle, (int)(next_container++ % (unsigned)nranks));
	}
	return rc;
}

/*
 * Blocks, and a single row or column of tiles, are cyclic over every rank
 * (a column of 5 tiles on 4 ranks: 0 1 2 3 0); a grid of tiles is 2-D
 * block-cyclic over P x Q.  A row of tiles followed the 2-D rule, over Q
 * ranks of grid row 0 only (0 1 0 1 0 on 2 x 2), where a column was 1-D.
 */
void sp__partitioned(struct pph_data *parent, unsigned nr, unsigned nc)
{
	unsigned i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < nc; j++) {
			struct pph_data *c = &parent->children[i * nc + j];
			int owner = nr == 1 || nc == 1 ?
					    (int)((i * nc + j) % (unsigned)nranks) :
					    (int)(i % (unsigned)grid_p) * grid_q + (int)(j % (unsigned)grid_q);

			sp__registered(c);
			/* a raw pointer's blocks stay each rank's own, as the
			 * pointer is: an owner's would be computed from its
			 * memory and sent to the others */
			if (distributed(parent) && !nested())
				make_distributed(c, owner); /* the parent was valid everywhere */
		}
}

void sp__gather_everywhere(struct pph_data *d)
{
	if (distributed(d) && !nested()) {
		ordered("reading, partitioning or unregistering distributed data");
		starpu_mpi_get_data_on_all_nodes_detached(COMM, d->h);
	}
}

int sp__may_discard(struct pph_data *d)
{
	return !distributed(d);
}

void sp__children_everywhere(struct pph_data *parent)
{
	unsigned k;

	for (k = 0; k < parent->nchildren; k++)
		sp__gather_everywhere(&parent->children[k]);
}

void sp__unpartitioned(struct pph_data *parent)
{
	if (distributed(parent) && !nested()) {
		ordered("unpartitioning distributed data");
		mark_everywhere(parent);
	}
}

/* The owner's host write is the value tasks elsewhere receive next. */
void sp__host_written(struct pph_data *d)
{
	if (distributed(d) && !nested()) {
		ordered("writing distributed data");
		starpu_mpi_cache_flush(COMM, d->h);
	}
}

/* The rank that runs p: the one owner of the data it writes, or -1: every
 * rank. */
static int executor(const struct pph_task *p)
{
	int owner = -1;
	unsigned i;

	for (i = 0; i < p->nbuffers; i++) {
		int r = starpu_mpi_data_get_rank(p->handles[i]);

		/* contributions to a reduction are combined on the owner */
		if (!(p->modes[i] & (STARPU_W | STARPU_REDUX)))
			continue;
		if (r < 0 || (owner >= 0 && r != owner))
			return -1;
		owner = r;
	}
	return owner;
}

/* Every rank runs it, on its own data and on the current value of the
 * distributed data it uses: afterwards every rank holds what it wrote,
 * as StarPU-MPI's cache says after the broadcast. */
static int submit_everywhere(struct pph_task *p)
{
	unsigned i;

	for (i = 0; i < p->nbuffers; i++)
		if (starpu_mpi_data_get_rank(p->handles[i]) >= 0)
			starpu_mpi_get_data_on_all_nodes_detached(COMM, p->handles[i]);
	return starpu_task_submit(p->t);
}

/* On the owner: StarPU-MPI's task (it posted the receives) carries ours.
 * Once it is submitted, a detached p may run and be freed at any moment:
 * what comes after reads copies taken before. */
static int submit_on_owner(struct pph_task *p, int owner)
{
	struct starpu_data_descr descrs[PPH_MAX_BUFFERS];
	struct starpu_task *t, *mine = p->t;
	struct starpu_codelet *cl = &p->w->cl;
	int nbuffers = (int)p->nbuffers, rc = 1;
	int i;

	for (i = 0; i < nbuffers; i++)
		descrs[i] = (struct starpu_data_descr){ p->handles[i], p->modes[i] };
	t = starpu_mpi_task_build(COMM, cl, STARPU_EXECUTE_ON_NODE, owner, STARPU_DATA_MODE_ARRAY,
				  descrs, nbuffers, 0);
	p->t = t;
	if (t) {
		t->cl_arg = mine->cl_arg; /* ours: StarPU must not free it */
		t->cl_arg_free = 0;
		t->callback_arg_free = 0;
		t->priority = mine->priority;
		t->detach = mine->detach;
		t->destroy = mine->destroy;
		t->callback_func = mine->callback_func;
		t->callback_arg = mine->callback_arg;
	}
	mine->detach = 0; /* never submitted: ours to destroy */
	starpu_task_destroy(mine);
	if (t)
		rc = starpu_task_submit(t);
	starpu_mpi_task_post_build(COMM, cl, STARPU_EXECUTE_ON_NODE, owner, STARPU_DATA_MODE_ARRAY,
				   descrs, nbuffers, 0);
	return rc;
}

int sp__task_submit(struct pph_task *p)
{
	int owner = nranks > 1 ? executor(p) : -1;

	unsigned i;

	if (nested()) /* its data is this rank's, or was brought here for the variant */
		return starpu_task_submit(p->t);
	for (i = 0; i < p->nbuffers; i++)
		if (starpu_mpi_data_get_rank(p->handles[i]) >= 0) {
			ordered("a call on distributed data");
			break;
		}
	return owner < 0 ? submit_everywhere(p) : submit_on_owner(p, owner);
}

/*
 * A variant failure is this rank's alone: the call fails here, or the
 * variant is disabled here, while the other ranks go on as if it had run.
 * From then on the ranks disagree (a later call runs on one rank and is
 * refused on another, a host read waits for data the owner never sends)
 * and the job hung.  It cannot be undone consistently, so it ends the job,
 * every rank with a non-zero status (doc/distributed.md).
 */
void sp__variant_failure(const struct pph_codelet *cl, int idx, const char *how)
{
	if (nranks <= 1)
		return; /* one process: the call fails, or the next variant runs */
	fprintf(stderr, "peppher: rank %d of %d: %s/%s failed (%s): the ranks would no longer agree on the data and the variants; ending the job (MPI_Abort)\n",
		my_rank, nranks, cl->name ? cl->name : "?",
		cl->impls[idx].name ? cl->impls[idx].name : "?", how);
	fflush(stderr);
	MPI_Abort(COMM, 1);
}

/*
 * No worker of this rank can run p: the call fails here, while a rank
 * with workers of another kind (PEPPHER_NOPENCL=0 on this rank only, an
 * OpenCL-only component) runs it, or, the owner, is waited for: the job
 * hung.  As a variant failure, that ends the job; where no rank has the
 * workers p needs, the call fails alike on every rank, as on one process.
 */
int sp__not_runnable_here(const struct pph_task *p, int rc)
{
	const char *name = p->w->snapshot.name ? p->w->snapshot.name : "?";

	if (nranks <= 1 || nested() || (rc == -ENODEV && !sp__runnable_with(p, most_workers)))
		return rc;
	fprintf(stderr, "peppher: rank %d of %d: %s: %s: the ranks would no longer agree on the data; ending the job (MPI_Abort)\n",
		my_rank, nranks, name,
		rc == -ENODEV ? "no worker of this rank can run any variant the call allows, where another rank's can" :
				"its data do not fit in the device memory this rank's limits leave, where another rank's may");
	fflush(stderr);
	MPI_Abort(COMM, 1);
	return rc;
}

void sp__dist_stats_print(FILE *fp)
{
	fprintf(fp, "rank %d of %d: %lu tasks ran here, %llu bytes sent to other ranks%s\n", my_rank,
		nranks, sp__tasks_ran(), bytes_sent(),
		comm_stats() ? "" : " (counted with STARPU_COMM_STATS=1 only)");
}

/* <peppher/distributed.h>: its weak references find these. */
int pph__dist_rank(void)
{
	return my_rank;
}

int pph__dist_size(void)
{
	return nranks;
}

int pph__dist_set_owner(pph_data_handle handle, int rank)
{
	int rc;

	if ((rc = sp__enter("pph_data_set_owner", 0)) != 0)
		return rc;
	if (!handle || handle->unregistered || rank < 0 || rank >= nranks || !distributed(handle))
		rc = -EINVAL;
	else if (handle->nchildren)
		rc = -EBUSY;
	else {
		ordered("pph_data_set_owner");
		starpu_mpi_data_migrate(COMM, handle->h, rank);
	}
	sp__leave();
	return rc;
}

int pph__dist_owner(pph_data_handle handle)
{
	if (!handle || handle->unregistered || !starpu_is_initialized())
		return -1;
	return distributed(handle) ? starpu_mpi_data_get_rank(handle->h) : -1;
}

int sp__split_async(void)
{
	return 0;
}
