/* libpeppher-starpu internals: the PEPPHER-C runtime API over StarPU 1.3. */
#ifndef PEPPHER_STARPU_INTERNAL_H
#define PEPPHER_STARPU_INTERNAL_H

/* StarPU asks for OpenCL 1.0 unless told; our variants have 1.2 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <starpu.h>

#include "config.h"
#include "../runtime/caller_thread.h"
#include "../runtime/fpenv.h"
#include "../runtime/worker_stack.h"

/* OpenCL workers: where StarPU has them and this build has OpenCL
 * (configure --disable-opencl: StarPU starts none, init.c) */
#if defined(STARPU_USE_OPENCL) && defined(PPH_HAVE_OPENCL)
#define SP_USE_OPENCL 1
#endif

#include <peppher/wrappers.h>

/* containers_shim.h's macros are for containers/containers.c alone */
#undef pph_vector_register
#undef pph_matrix_register
#undef pph_variable_register

/*
 * A child forked while StarPU ran (init.c's pthread_atfork handler) has a
 * copy of StarPU's state that says it runs, but not its threads: waiting
 * for them, or starpu_shutdown, hangs there.  Every file here (wrappers.c
 * too) asks whether the runtime runs through starpu_is_initialized(),
 * which says no in such a child; (starpu_is_initialized)() is StarPU's.
 */
extern int sp__forked_child;

static inline int sp__running(void)
{
	return !sp__forked_child && (starpu_is_initialized)();
}
#define starpu_is_initialized() sp__running()

/* The worker kinds StarPU has, in the order of sp_codelet's maps. */
enum sp_kind { SP_CPU, SP_OPENCL, SP_CUDA, SP_NKINDS };

enum sp_layout { SP_VECTOR, SP_MATRIX, SP_VARIABLE };

/* A pph_data_handle: a StarPU handle and the host shape it was made with. */
struct pph_data {
	starpu_data_handle_t h; /* NULL for host data (data.c): host is the data */
	void *host;
	enum sp_layout layout;
	size_t n, rows, cols, ld, elemsize; /* n: vector length or variable size */
	int child;			     /* a block of a partitioned handle */
	unsigned nchildren;		     /* > 0 while partitioned */
	struct pph_data *children;
	int unregistered;
	const struct pph_reduction *redux; /* pph_data_set_reduction's (redux.c) */
	/* empty data (no element): StarPU's handle is one element here, so
	 * that no device allocates 0 bytes (data.c); variants see it empty */
	void *spare;
	/* the smart container whose handle this is (containers.c), told of
	 * each call on it once submitted (wrappers.c) */
	struct pph_container *container;
	/* registered with StarPU and not unregistered yet (data.c) */
	struct pph_data *live_prev, *live_next;
};

/*
 * A pph_codelet as StarPU sees it: one starpu_codelet whose functions are
 * trampolines (one per kind), and, per kind, which of the pph variants
 * StarPU's implementation nimpl is.
 */
struct sp_codelet {
	struct starpu_codelet cl;
	struct starpu_perfmodel model;
	const struct pph_codelet *pcl;
	struct pph_codelet snapshot; /* to notice a codelet reused at one address */
	int map[SP_NKINDS][STARPU_MAXIMPLEMENTATIONS];
	unsigned disabled;		/* bit i: impls[i] failed (pph_variant_failed) */
	unsigned long *runs;		/* [worker * nimpls + i]: times impls[i] ran there */
	char *symbol;
	struct sp_codelet *next;
};

struct pph_task {
	struct starpu_task *t;
	struct sp_codelet *w;
	unsigned mask;
	int forced; /* index, or -1 */
	int impl_ran, worker_ran;
	/* errno its variant starts with, and what the variant left: a
	 * synchronous call's caller sees it on return (wrappers.c) */
	int errno_value;
	/* its submitter's rounding and traps, the flags its variant raised
	 * (fpenv.h) */
	struct pph_fpenv fpenv;
	int rc;	    /* -EIO when no variant could run it */
	int submitted, detached;
	void (*callback)(void *);
	void *callback_data;
	void *arg;
	size_t arg_size;
	int host_only; /* host data: CPU and OPENMP variants only */
	unsigned no_room; /* bit k: its data exceed STARPU_LIMIT_*_MEM of kind k */
	int redux; /* a PPH_REDUX buffer: no CUDA variant (redux.c) */
	unsigned nbuffers; /* StarPU's buffers */
	starpu_data_handle_t handles[PPH_MAX_BUFFERS];
	enum starpu_data_access_mode modes[PPH_MAX_BUFFERS];
	const struct pph_data *empty[PPH_MAX_BUFFERS]; /* empty data (data.c), else NULL */
	/* each StarPU buffer's handle and mode as added: whether they may be
	 * used is asked at the submission, as libpeppher does */
	const struct pph_data *data[PPH_MAX_BUFFERS];
	enum pph_access pmodes[PPH_MAX_BUFFERS];
	int host_redux; /* PPH_REDUX on host data, which has no operator */
	/* the variant's buffers: each StarPU's buffer slot[i], or, at -1,
	 * host data (no StarPU buffer: data.c), given as it is */
	unsigned nslots;
	int slot[PPH_MAX_BUFFERS];
	const struct pph_data *host_data[PPH_MAX_BUFFERS];
};

/* The row of sp_codelet.runs that counts the calls run on their callers'
 * threads (PPH_IMPL_CALLER_THREAD), after the workers' */
#define SP_CALLER_ROW STARPU_NMAXWORKERS
/* wrappers.c's call: the variants of a call of cl that run on its caller's
 * thread (runtime.h), or 0; and the call run so, on this thread, its
 * data acquired home first: 0, -EIO, -ECANCELED (pph_variant_error) */
unsigned sp__for_caller(const struct pph_codelet *cl, unsigned impl_mask);
int sp__task_run_for_caller(struct pph_task *p);

/* Run p's first CPU variant that may run on this thread, at once: a call
 * made inside a variant (StarPU's workers must not wait), on host data
 * only.  Returns 0, -EDEADLK for data with a StarPU handle, -EIO when no
 * variant could run it. */
int sp__task_run_here(struct pph_task *p);

/* Is this thread running a variant?  Then say that what (a wait) cannot
 * be done there: StarPU asserts that its workers never wait, and aborts. */
int sp__waits_in_variant(const char *what);
/* the variant running here holds handle: what is refused, said */
int pph__data_held_here(pph_data_handle handle, const char *what);
/* pph_data_unregister without making the host copy valid (data.c) */
void pph__data_discard(pph_data_handle handle);
/* Smart containers (containers/containers.c, built into both runtimes):
 * handle is container c's; a call on c with these modes was submitted
 * (the calls' wrappers tell each container of theirs). */
struct pph_container;
void pph__data_set_container(pph_data_handle handle, struct pph_container *c);
void pph__container_called(struct pph_container *c, enum pph_access mode);

/*
 * What a distributed run (libpeppher-starpu-mpi, starpu/mpi.c) adds at
 * each step; on one process (starpu/single.c) these start and stop StarPU,
 * submit tasks and do nothing else.
 */
int sp__engine_start(struct starpu_conf *conf);
/* starpu_init(conf), started again with one CPU worker where it made none
 * and conf left their count to StarPU; reserved: the cores the engine
 * added to conf->reserve_ncpus for its own thread (init.c) */
int sp__starpu_init(struct starpu_conf *conf, int reserved);
/* before starting StarPU: no copies home ahead of need, unless the
 * environment asks (data.c) */
void sp__memory_defaults(void);
void sp__engine_wait_all(void);
/* pph_task_wait_all: distributed, every rank's tasks and transfers (every
 * rank calls it), and with PEPPHER_STATS=1 the bytes each rank sent so far */
void sp__tasks_wait_all(void);
void sp__engine_stop(void);
/* the ranks d's blocks are spread over: every rank for a container's data,
 * one for a rank's own (a raw pointer's); pph_call_partitioned's "one
 * block per worker" counts those ranks' workers, sp__workers_per_rank()
 * each: the same count on every rank (the fewest a rank has), as the
 * blocks registered must be */
unsigned sp__ranks_sharing(const struct pph_data *d);
unsigned sp__workers_per_rank(void);
/* a handle was registered (each rank keeps its own until a container or
 * a partition makes it distributed) */
void sp__registered(struct pph_data *d);
/* containers/containers.c registered a container's handle (the shim) */
int sp__container_registered(int rc, pph_data_handle *handle);
/* children now partition parent: a grid of nr x nc tiles, or nr blocks (nc 1) */
void sp__partitioned(struct pph_data *parent, unsigned nr, unsigned nc);
/* before partitioning, unpartitioning, a host access, unregistering: the
 * current value of d (of its children) on every rank */
void sp__gather_everywhere(struct pph_data *d);
/* May d be unregistered without a valid copy home (its container frees
 * the memory next)?  Not distributed data: every rank unregisters it in
 * one order, gathering it (libpeppher-starpu-mpi). */
int sp__may_discard(struct pph_data *d);
void sp__children_everywhere(struct pph_data *parent);
/* after the unpartition (parent valid everywhere), after a host write */
void sp__unpartitioned(struct pph_data *parent);
void sp__host_written(struct pph_data *d);
/* starpu_task_submit, or, distributed, on the rank that owns what the
 * task writes: 0 when StarPU has the task here (a detached one may have run,
 * and its callback freed p, by the time this returns: p is not touched
 * after), 1 when it runs on another rank (p->t is NULL; p is the caller's
 * still), or -errno */
int sp__task_submit(struct pph_task *p);
void sp__dist_stats_print(FILE *fp);
/* Variant idx of cl failed on this rank (how: pph_variant_failed or
 * pph_variant_error): distributed over several ranks, it says so and ends
 * the job (MPI_Abort), since the ranks would no longer agree; else it
 * returns, and the call fails or the next variant runs as on one process. */
void sp__variant_failure(const struct pph_codelet *cl, int idx, const char *how);
/* No worker of this process can run task p (rc: -ENODEV, or -ENOMEM: its
 * data do not fit where it could): rc, the call's failure; distributed,
 * where another rank's workers could run it, it says so and ends the job
 * as a variant failure does.  (task.c: sp__runnable_with, would workers
 * of these counts per kind run p?) */
int sp__not_runnable_here(const struct pph_task *p, int rc);
int sp__runnable_with(const struct pph_task *p, const unsigned count[SP_NKINDS]);
extern const char sp__library[]; /* its name, for the statistics */

/* Set by pph_init: the codelets made so far, freed by pph_shutdown. */
struct sp_codelet *sp__codelet_get(const struct pph_codelet *cl);
void sp__codelets_free(void);
void sp__stats_print(FILE *fp);
/* tasks run by this process's workers since pph_init */
unsigned long sp__tasks_ran(void);

/* Elements of a vector, rows of a matrix: what a partition splits. */
size_t sp__split_length(const struct pph_data *d);
/* data.c: an asynchronous split call's n equal blocks of parent, submitted
 * as StarPU's asynchronous partition (wrappers in blocks, StarPU's
 * children in hs), then gathered home and unregistered, done(arg) run
 * once gathered.  Not for distributed data (sp__split_async). */
int sp__data_split_ok(const struct pph_data *parent, unsigned n);
int sp__data_split_submit(pph_data_handle parent, unsigned n, struct pph_data *blocks,
			  starpu_data_handle_t *hs);
void sp__data_split_gather(pph_data_handle parent, unsigned n, starpu_data_handle_t *hs,
			   void (*done)(void *), void *arg);
/* init.c: an asynchronous split call opens (1) and closes (0) its window,
 * in which no other thread enters (sp__enter waits). */
void sp__split_window(int open);
/* Does the engine split calls asynchronously (single.c: yes; mpi.c: no,
 * its partitions are registered on every rank in one order)? */
int sp__split_async(void);

/* A call failed (pph_failed_calls): reported by an entry wrapper, or a
 * detached task that no variant could run. */
void sp__count_failed_call(void);

/* pph_init fails for a reason the engine found (mpi.c: the environment):
 * say it, and keep it for the calls that follow, rather than "starpu_init
 * failed". */
void sp__init_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* -ENODEV, saying why (once per reason) when the runtime does not run. */
int sp__not_running(const char *what);
/*
 * An application thread's entry into StarPU (init.c): counted, so that
 * pph_shutdown waits for those under way before it stops StarPU.  0:
 * entered (sp__leave after), or -ENODEV: not running, or pph_shutdown is
 * stopping it (said, naming what; quiet when what is NULL).  finishing:
 * unregistering and waits, let in while pph_shutdown waits for the calls
 * under way, and else waiting for its end (then -ENODEV: act as with
 * the runtime stopped).  Nested entries and variants' calls are not
 * refused.
 */
int sp__enter(const char *what, int finishing);
void sp__leave(void);
/* this thread is inside sp__enter; it left its outermost (the engine's
 * hook: mpi.c's check of two threads calling at once) */
int sp__inside(void);
void sp__thread_left(void);
/* pph_shutdown is stopping StarPU: a refused call says so, not "no worker" */
int sp__stopping(void);

/* In OpenCL variants: the calling worker's device index, or -1. */
int sp__opencl_devid(void);
void sp__opencl_set_current(int devid);
void sp__opencl_free(void);

/* A StarPU buffer's elements: rows of cols elements of es bytes, ld
 * elements apart, at ptr on the host; on an OpenCL device, in the cl_mem
 * dev at offset bytes (a variable's cl_mem is its ptr: see task.c).  Our
 * shapes map onto StarPU's as in data.c: a matrix of rows x cols is
 * StarPU's ny x nx.  (redux.c) */
struct sp_shape {
	size_t rows, cols, ld, es, offset;
	uintptr_t ptr, dev;
};
struct sp_shape sp__shape_of(void *buf);

/* The variant that runs on this thread, for pph_variant_failed(). */
void sp__variant_failed_reset(void);
int sp__variant_failed_get(void);
/* Bring every handle still registered home before StarPU stops
 * (pph_shutdown): its host memory is then the data. */
void sp__data_home_all(void);
/* The name of the variant that runs on this thread; NULL outside one. */
const char *sp__running_variant(void);

#endif
