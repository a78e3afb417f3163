/*
 * PEPPHER-C runtime: tasks, codelets and data handles.
 *
 * Conventions: functions return 0 on success or a negative errno value;
 * functions returning pointers return NULL on failure.  The runtime never
 * exits the application.
 */
#ifndef PEPPHER_RUNTIME_H
#define PEPPHER_RUNTIME_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pph_init Initialization */
/** @{ */

/**
 * Start the runtime: one CPU worker per core that the calling thread may
 * run on (its affinity: taskset, mpirun --bind-to; PEPPHER_NCPU overrides
 * the count), each bound to one of those cores with hwloc, and the scheduler named by
 * PEPPHER_SCHED (default "dmda").  Returns 0, -EALREADY when the runtime is
 * already running, -EINVAL for a bad environment value (PEPPHER_NCPU,
 * PEPPHER_SCHED, PEPPHER_LIMIT_*_MEM, ...), or another -errno; on failure
 * it prints why, and the calls that follow say it again instead of
 * failing with a bare -ENODEV.  pph_init() and pph_shutdown() run one at
 * a time: of two threads calling pph_init() at once, one starts the
 * runtime and the other gets -EALREADY.
 */
int pph_init(void);

/**
 * What pph_init_conf() starts, as StarPU's starpu_conf: -1 leaves a count
 * to the runtime.  The environment, where it sets one (PEPPHER_NCPU,
 * PEPPHER_NCUDA, PEPPHER_NOPENCL), overrides the program's value.
 */
struct pph_conf {
	int ncpu;    /**< CPU workers, 1 or more; -1: one per core the caller may run on */
	int ncuda;   /**< CUDA devices at most; -1: every device */
	int nopencl; /**< OpenCL devices at most; 0 loads no OpenCL platform; -1: every device */
	/**
	 * When the OpenMP threads of fork-join teams start: 1 at pph_init (each
	 * team's leading worker starts and pins its team's threads there, out of
	 * the program's calls); 0 at each team's first fork-join variant (a
	 * program without OPENMP variants starts none); -1: 1 where the program
	 * links an OpenMP runtime, else 0.
	 */
	int openmp;
};

/** Fill conf with the defaults (every field -1). */
void pph_conf_init(struct pph_conf *conf);

/**
 * pph_init() with the counts of conf (NULL: the defaults).  A program
 * whose codelets have no OpenCL variant starts faster with nopencl = 0:
 * loading an OpenCL platform (PoCL and its LLVM) costs some 40 ms and
 * 70 MB.  A codelet whose only variants are for devices not started
 * fails at its call (-ENODEV).  Returns what pph_init() returns, and
 * -EINVAL for a count out of range.
 */
int pph_init_conf(const struct pph_conf *conf);

/**
 * What a program's PEPPHER_INITIALIZE() does: start the runtime with conf
 * (NULL: the defaults), or stop the program with the reason and exit
 * status 1.  A program that cannot run its components must not go on and
 * exit 0 with its data unchanged.  The exit is the program's own (the
 * macro expands in its main): the runtime itself never exits.  -EALREADY
 * is no failure.
 */
#define PPH_INITIALIZE_CONF_OR_EXIT(conf)                                               \
	do {                                                                            \
		int pph_init_rc_ = pph_init_conf(conf);                                 \
		if (pph_init_rc_ != 0 && pph_init_rc_ != -EALREADY) {                   \
			fprintf(stderr, "peppher: the runtime cannot start; stopping\n");  \
			exit(EXIT_FAILURE);                                             \
		}                                                                       \
	} while (0)

/** PPH_INITIALIZE_CONF_OR_EXIT() with the defaults. */
#define PPH_INITIALIZE_OR_EXIT() PPH_INITIALIZE_CONF_OR_EXIT(NULL)

/**
 * Wait for every submitted task, print statistics when PEPPHER_STATS=1, stop
 * the workers and release everything the runtime owns.  Tasks other
 * application threads submit meanwhile run if accepted before it stops
 * the runtime, and are refused (-ENODEV) after; so are calls.  Calls,
 * pph_data_unregister(), pph_data_acquire() and partitions under way are
 * waited for; those data functions called while it stops the runtime (an
 * entry wrapper's unregistering after its call) are not refused: they
 * are done before it stops the runtime, or wait for pph_shutdown() to
 * end and act on the host memory then.  The data of handles still
 * registered are brought home first: their host memory is the data, but
 * they must not be used with tasks any more.  A second thread's pph_shutdown() while
 * one runs waits for that one to end, and returns.  Called inside a task
 * (from a variant), it would wait for that task: it prints so and returns
 * without doing anything.  After it, the library may be unloaded (dlclose
 * of it or of a plugin linked with it; libpeppher frees then what it kept
 * for the process), and threads that called it may end before or after.
 * Not before it: the workers run the library's code.
 */
void pph_shutdown(void);

/**
 * The calls that failed since the program started, their data left as it
 * was: the calls an entry wrapper reported (pph_call_failed(): refused,
 * failed, made before pph_init() or after pph_shutdown(), or no variant's
 * constraints held) and the detached tasks (asynchronous calls) that
 * failed, which nobody else is told of.  pph_init() does not reset it: a
 * call made too early failed all the same.
 */
unsigned long pph_failed_calls(void);

/**
 * What a program's PEPPHER_SHUTDOWN() does: pph_shutdown(), then, if a
 * call failed, stop the program with how many and exit status 1, as
 * PEPPHER_INITIALIZE() does when the runtime cannot start: its results
 * are missing what those calls were to compute.  A program that handles
 * failed calls itself calls pph_shutdown() instead.
 */
#define PPH_SHUTDOWN_OR_EXIT()                                                          \
	do {                                                                            \
		unsigned long pph_failed_;                                              \
		pph_shutdown();                                                         \
		if ((pph_failed_ = pph_failed_calls()) != 0) {                          \
			fprintf(stderr, "peppher: %lu call%s failed, %s data as it was; stopping\n", \
				pph_failed_, pph_failed_ == 1 ? "" : "s",               \
				pph_failed_ == 1 ? "its" : "their");                    \
			exit(EXIT_FAILURE);                                             \
		}                                                                       \
	} while (0)

/** Nonzero between a successful pph_init() and pph_shutdown(). */
int pph_is_initialized(void);

/** Number of workers that run tasks. */
unsigned pph_worker_count(void);

/** @} */

/** \defgroup pph_codelet Codelets: the variants of one component */
/** @{ */

/** Where a variant runs; OPENMP variants run on CPU workers. */
enum pph_arch {
	PPH_ARCH_CPU,
	PPH_ARCH_OPENMP,
	PPH_ARCH_CUDA,
	PPH_ARCH_OPENCL,
	PPH_ARCH_COUNT
};

/** Number of workers of an architecture (CPU workers also run OPENMP). */
unsigned pph_worker_count_arch(enum pph_arch arch);

/** Name of an architecture ("CPU", "OPENMP", "CUDA", "OPENCL"). */
const char *pph_arch_name(enum pph_arch arch);

/**
 * A backend wrapper: buffers[i] is the interface of the i-th data handle on
 * the memory node the task runs on (see PPH_VECTOR_PTR and friends); arg is
 * the task's by-value argument block.
 */
typedef void (*pph_kernel_fn)(void *buffers[], void *arg);

/**
 * A CPU variant that runs on the thread that made the call, never on a
 * worker: it calls a library that keeps state per thread (its last error:
 * OpenSSL's error queue, libgit2's git_error_last, TurboJPEG's
 * tjGetErrorStr2(NULL); an interpreter's thread state: Python, Tcl), which
 * the program's next call reads on its own thread.  Only synchronous calls
 * (pph_call_sync, or an entry wrapper's) run it: there, in the call's
 * order on its data, when no other variant of the call can run (no worker
 * for one, or none allowed); an asynchronous call whose only variants are
 * such is made synchronous, a split call runs whole; a task submitted
 * otherwise (pph_task_submit, a split call's block) runs the other
 * variants only, or is refused (-ENODEV) where there are none.  Honoured
 * among a codelet's first 32 variants (the mask's).
 */
#define PPH_IMPL_CALLER_THREAD 1u

/** One implementation variant. */
struct pph_impl {
	enum pph_arch arch;
	pph_kernel_fn fn;
	const char *name; /**< shown in statistics and traces */
	unsigned flags;	  /**< PPH_IMPL_CALLER_THREAD, or 0 */
};

/**
 * How a codelet's run times are predicted (compose's -useHistoryModels,
 * -useRegressionModels, -useNLRegressionModels and the interface
 * attributes of the same names).
 */
enum pph_model_kind {
	/** history per data size where measured, a*n^b+c elsewhere */
	PPH_MODEL_DEFAULT = 0,
	/** history only: a size never measured is calibrated first */
	PPH_MODEL_HISTORY,
	/** a*n^b fitted to the history, for every size once fitted */
	PPH_MODEL_REGRESSION,
	/** a*n^b+c fitted to the history, for every size once fitted */
	PPH_MODEL_NL_REGRESSION,
};

/**
 * A component as the runtime sees it: a name and its variants.  Codelets
 * are usually static const data emitted by compose; the runtime never
 * writes to them and keeps pointers to them until pph_shutdown().
 */
struct pph_codelet {
	const char *name;
	unsigned nimpls;
	const struct pph_impl *impls;
	enum pph_model_kind model; /**< PPH_MODEL_DEFAULT when left out */
};

/**
 * Declare a codelet the program will call: pph_init() then loads its
 * performance model, and fits its regressions, instead of its first call
 * (a model of a few hundred sizes takes some 100 microseconds to read and
 * fit).  Once the runtime runs, done at once.  compose's entry wrappers
 * declare theirs from a constructor.  cl must stay valid until the
 * program ends; at most 1024 codelets are remembered (the others load at
 * their first call).
 */
void pph_codelet_declare(const struct pph_codelet *cl);

/** @} */

/** \defgroup pph_data Data handles */
/** @{ */

/** How a task uses a handle. */
enum pph_access {
	PPH_R = 1,
	PPH_W = 2,
	PPH_RW = PPH_R | PPH_W,
	/**
	 * Contribute to the handle through its reduction operator
	 * (pph_data_set_reduction): tasks in this mode do not wait for each
	 * other; each gets a private accumulator set to the operator's
	 * identity, and the accumulators are combined into the data, in
	 * submission order, before the next access in another mode (a task,
	 * pph_data_acquire, unregistering, partitioning).  Not combined with
	 * another mode.  On a device the accumulator is a copy there, set
	 * to the identity on the host, copied in before the variant runs and
	 * home after it; the combine is on the host, in the operator's C
	 * functions.
	 */
	PPH_REDUX = 4
};

typedef struct pph_data *pph_data_handle;

/** What a kernel receives for a vector handle. */
struct pph_vector_iface {
	void *ptr;
	size_t n;
	size_t elemsize;
};

/** What a kernel receives for a variable (single value) handle. */
struct pph_variable_iface {
	void *ptr;
	size_t size;
};

/**
 * What a kernel receives for a matrix handle: rows x cols elements, row
 * major, element (i, j) at ptr + (i * ld + j) * elemsize.
 */
struct pph_matrix_iface {
	void *ptr;
	size_t rows, cols, ld;
	size_t elemsize;
};

/* The macros' casts: C++'s own in C++, so that C++ code using them builds
 * quietly under -Wold-style-cast */
#ifdef __cplusplus
#define PPH_CAST_(type, x) (static_cast<type>(x))
#else
#define PPH_CAST_(type, x) ((type)(x))
#endif
/* buf (a kernel's buffers[i]) as a TYPE * */
#define PPH_IFACE_(type, buf) PPH_CAST_(type *, buf)
#define PPH_VECTOR_PTR(buf) (PPH_IFACE_(struct pph_vector_iface, buf)->ptr)
#define PPH_VECTOR_N(buf) (PPH_IFACE_(struct pph_vector_iface, buf)->n)
#define PPH_VECTOR_ELEMSIZE(buf) (PPH_IFACE_(struct pph_vector_iface, buf)->elemsize)
#define PPH_VARIABLE_PTR(buf) (PPH_IFACE_(struct pph_variable_iface, buf)->ptr)
#define PPH_MATRIX_PTR(buf) (PPH_IFACE_(struct pph_matrix_iface, buf)->ptr)
#define PPH_MATRIX_ROWS(buf) (PPH_IFACE_(struct pph_matrix_iface, buf)->rows)
#define PPH_MATRIX_COLS(buf) (PPH_IFACE_(struct pph_matrix_iface, buf)->cols)
#define PPH_MATRIX_LD(buf) (PPH_IFACE_(struct pph_matrix_iface, buf)->ld)
#define PPH_MATRIX_ELEMSIZE(buf) (PPH_IFACE_(struct pph_matrix_iface, buf)->elemsize)

/**
 * Register n elements of elemsize bytes at ptr (host memory the caller
 * keeps owning) as a vector.  On success *handle is set and 0 returned;
 * -EINVAL for a NULL handle pointer or a zero elemsize; -EOVERFLOW when
 * n * elemsize bytes do not fit in 64 bits; -ENOMEM.
 * n may be 0 (ptr may then be NULL).
 */
int pph_vector_register(pph_data_handle *handle, void *ptr, size_t n,
			size_t elemsize);

/**
 * Register a rows x cols row-major matrix whose rows start ld elements
 * apart (ld >= cols; ld > cols describes a block of a larger matrix without
 * copying it).  Returns 0, -EINVAL (NULL handle, zero elemsize, ld < cols),
 * -EOVERFLOW (the sizes in bytes do not fit in 64 bits), -ENOMEM.
 */
int pph_matrix_register(pph_data_handle *handle, void *ptr, size_t rows,
			size_t cols, size_t ld, size_t elemsize);

/** Register size bytes at ptr as a single variable; errors as above. */
int pph_variable_register(pph_data_handle *handle, void *ptr, size_t size);

/**
 * Split a vector into nparts contiguous blocks, or a matrix into nparts
 * blocks of rows, each a new handle over the parent's host memory (no
 * copy).  First waits for the tasks using the parent and brings its data
 * home.  The parent must not be used until pph_data_unpartition().
 * Returns 0, -EINVAL (nparts 0 or more than the elements, a variable, NULL
 * parent or children), -EBUSY (already partitioned: unpartition it
 * first), or -errno.
 */
int pph_data_partition(pph_data_handle parent, unsigned nparts,
		       pph_data_handle *children);

/**
 * Split a matrix into nparts blocks of columns: sub-views over the
 * parent's host memory with the parent's leading dimension (no copy; a
 * device receives each block packed).  As pph_data_partition otherwise,
 * and -EINVAL for anything but a matrix.  Undone by pph_data_unpartition().
 */
int pph_data_partition_columns(pph_data_handle parent, unsigned nparts,
			       pph_data_handle *children);

/**
 * Split a vector, or a matrix by rows, into nparts blocks of the given
 * sizes (elements, or rows), in order: sizes must be nonzero and add up to
 * the parent's length.  As pph_data_partition otherwise; -EINVAL for sizes
 * that do not add up.  Undone by pph_data_unpartition().
 */
int pph_data_partition_sizes(pph_data_handle parent, unsigned nparts, const size_t *sizes,
			     pph_data_handle *children);

/** Tiles of size tile over n elements: the last one may be smaller. */
static inline size_t pph_tile_count(size_t n, size_t tile)
{
	return n / tile + (n % tile != 0);
}

/**
 * Split a matrix into a grid of tile_rows x tile_cols tiles (those of the
 * last row and column of the grid may be smaller): children[i * nc + j] is
 * tile (i, j), nc = pph_tile_count(cols, tile_cols), a sub-view over the
 * parent's host memory with the parent's leading dimension (no copy; a
 * device receives each tile packed).  Each tile is a handle of its own:
 * tasks on different tiles run concurrently, and each tile moves between
 * memories on its own.  children must have room for nr * nc handles.  As
 * pph_data_partition otherwise: -EINVAL for zero tile sizes or anything
 * but a matrix.  Undone by pph_data_unpartition(parent, nr * nc, children).
 */
int pph_data_partition_tiles(pph_data_handle parent, size_t tile_rows, size_t tile_cols,
			     pph_data_handle *children);

/**
 * A reduction operator, element by element: init sets one element to the
 * identity, combine sets *into to (*into op *from).  An element is a
 * vector's or a matrix's element, or a variable's whole size.
 */
struct pph_reduction {
	void (*init)(void *elem);
	void (*combine)(void *into, const void *from);
};

/** The operators pph_reduction_builtin() knows. */
enum pph_reduction_op { PPH_REDUCTION_SUM, PPH_REDUCTION_MIN, PPH_REDUCTION_MAX };

/** The element types of the built-in operators. */
enum pph_elem_type {
	PPH_TYPE_CHAR,
	PPH_TYPE_SIGNED_CHAR,
	PPH_TYPE_UNSIGNED_CHAR,
	PPH_TYPE_SHORT,
	PPH_TYPE_UNSIGNED_SHORT,
	PPH_TYPE_INT,
	PPH_TYPE_UNSIGNED,
	PPH_TYPE_LONG,
	PPH_TYPE_UNSIGNED_LONG,
	PPH_TYPE_LONG_LONG,
	PPH_TYPE_UNSIGNED_LONG_LONG,
	PPH_TYPE_FLOAT,
	PPH_TYPE_DOUBLE,
	PPH_TYPE_COUNT
};

/** A built-in operator (static data), or NULL for values out of range. */
const struct pph_reduction *pph_reduction_builtin(enum pph_reduction_op op,
						  enum pph_elem_type type);

/**
 * The operator tasks accessing the handle with PPH_REDUX use from now on
 * (the runtime keeps the pointer: static data, or alive until the handle
 * is unregistered).  Contributions made before keep the operator they
 * were made with.  Returns 0, or -EINVAL for a NULL handle or operator,
 * or an operator without init or combine.
 */
int pph_data_set_reduction(pph_data_handle handle, const struct pph_reduction *op);

/**
 * Say whether the host reads the handle's data after every task that
 * writes it, as with an entry wrapper's raw pointer, unregistered when its
 * call returns.  dmda then counts the copy back to the host in the cost of
 * placing such a task on a device: a GPU kernel that wins by 40 us but whose
 * result takes 100 us to come home is no gain.  A hint for placement only;
 * nothing is copied sooner.  NULL is a no-op.
 */
void pph_data_set_host_reads(pph_data_handle handle, int yes);

/** Wait for the tasks using the blocks, gather them home, free them: all
 *  of the blocks the partition made, each once and none partitioned
 *  itself, or nothing is done (said on stderr).
 *  While partitioned, tasks and pph_data_acquire on the parent are refused
 *  (-EBUSY), and so is pph_data_unregister on a block. */
void pph_data_unpartition(pph_data_handle parent, unsigned nparts,
			  pph_data_handle *children);

/**
 * Give the application access to the handle's host memory: wait for the
 * submitted tasks that write it (mode PPH_R) or use it at all (PPH_W,
 * PPH_RW), then make the host copy valid (transferring it back from a
 * device if needed) and, when mode writes, invalidate the device copies.
 * Access lasts until the next task that uses the handle is submitted
 * (there is no release: submissions order themselves after it).  Returns
 * 0, -EINVAL, -EBUSY (partitioned), -EDEADLK inside a variant whose task
 * holds the handle (writing, or acquired to write: it would wait for
 * itself), or -errno from a failed transfer.
 */
int pph_data_acquire(pph_data_handle handle, enum pph_access mode);

/**
 * Wait for every submitted task that uses the handle, make the host copy
 * valid, and free the handle (not the memory it describes).  NULL is a no-op;
 * a handle unregistered already, or partitioned, is refused with a message
 * (a second unregister would let two later handles share one slot).  errno
 * stays as it was: an entry wrapper unregisters after its call, whose
 * errno is the variant's (pph_call_sync).
 */
void pph_data_unregister(pph_data_handle handle);

/** @} */

/** \defgroup pph_task Tasks */
/** @{ */

#define PPH_MAX_BUFFERS 16

struct pph_task;

/**
 * Create a task running one variant of cl.  The task is owned by the
 * caller until submitted as detached.  Returns NULL on -ENOMEM or a NULL cl.
 */
struct pph_task *pph_task_create(const struct pph_codelet *cl);

/**
 * Append a data handle used with mode; the variant receives the handles in
 * the order they were added.  Returns -EINVAL for a bad mode or handle,
 * -E2BIG past PPH_MAX_BUFFERS, -EBUSY once submitted.
 */
int pph_task_add_buffer(struct pph_task *task, pph_data_handle handle,
			enum pph_access mode);

/**
 * Copy size bytes at arg into the task: the variant receives a pointer to
 * this copy.  Returns 0, -ENOMEM, -EBUSY once submitted.
 */
int pph_task_set_arg(struct pph_task *task, const void *arg, size_t size);

/**
 * Run only the variant cl->impls[index] (index < 0: let the scheduler
 * choose, the default).  Returns -EINVAL for an index out of range, and
 * for an index of 32 or more: variant masks have 32 bits, and a codelet's
 * variants past the 32nd are always allowed, forced or not.
 */
int pph_task_force_impl(struct pph_task *task, int index);

/** Every variant of a codelet: the default variant mask. */
#define PPH_ALL_IMPLS (~0u)

/**
 * Let the task run only the variants cl->impls[i] whose bit i is set in
 * mask (variants past the 32nd are always allowed): how an entry wrapper
 * applies the dynamic constraints of a call.  Returns -EINVAL when the
 * mask allows none of cl's variants (the task is left unchanged).
 */
int pph_task_set_impl_mask(struct pph_task *task, unsigned mask);

/**
 * Among tasks ready at the same time on the same queue, those of higher
 * priority start first (default 0; negative is allowed).
 */
void pph_task_set_priority(struct pph_task *task, int priority);

/**
 * The priority of the tasks this thread creates from now on, composed calls
 * included (which have no task to set one on): a tiled algorithm gives its
 * critical path, e.g. a Cholesky's potrf, trsm and the updates of the next
 * panel, a higher one than the trailing updates.  Per thread, 0 until set;
 * pph_task_set_priority() still changes one task's.  Returns the priority
 * set before.
 */
int pph_call_priority(int priority);

/**
 * The work of the tasks this thread creates from now on, composed calls
 * included, for the performance models: where it is > 0 a task's history
 * is kept, and regressions fitted, per work instead of per bytes of data.
 * For calls that do different amounts of work on the same data (a blocked
 * LU's trailing update on the whole matrix, by its block index): their
 * times would otherwise share one history.  Any positive measure that the
 * time grows with will do ((n - k)^2 for a trailing update); a regression
 * (useRegressionModels) then predicts the works never run.  Composed calls
 * set it from an interface's workSize.  0 (the default), a negative or
 * non-finite value: the data's bytes.  It applies to every task the thread
 * creates, each sub-task of a partitioned call included.  Returns the work
 * set before.
 */
double pph_call_work(double work);

/**
 * Call fn(data) on the worker right after the variant has run, before the
 * task counts as finished.
 */
void pph_task_set_callback(struct pph_task *task, void (*fn)(void *),
			   void *data);

/**
 * A detached task frees itself when it has finished; it must not be waited
 * for nor destroyed by the caller after submission.
 */
void pph_task_set_detached(struct pph_task *task, int detached);

/**
 * Submit the task.  It starts once every earlier-submitted task it depends
 * on has finished: dependencies are inferred per handle from access modes in
 * submission order (read after write, write after read, write after write);
 * readers of the same handle run concurrently.  Returns 0, -ENODEV when the
 * runtime is not initialized or no worker can run any of the variants
 * (the task is then not submitted), -EINVAL when the codelet is malformed
 * (no name, no variant, a variant without a function or a name) or a
 * handle was unregistered, -EBUSY when submitted twice or a handle is
 * partitioned (its blocks hold the data), -EFAULT when a handle registered
 * at NULL holds elements (no device can have it) and the task may run no
 * CPU or OpenMP variant.  A handle unregistered and its
 * slot registered again is the new handle: a stale one is not detected.
 * Its variant, a CPU or OpenMP one, runs with this thread's floating-point
 * rounding mode and enabled traps, on whichever thread it runs.
 */
int pph_task_submit(struct pph_task *task);

/** Block until the task has finished.  Returns 0, -EINVAL (detached, not
 *  submitted), -EDEADLK inside a variant whose task holds the task's data
 *  (the task waits for it: waiting here would wait for good), or -EIO (or
 *  another -errno) when no variant could run it: its data is then as it
 *  was before. */
int pph_task_wait(struct pph_task *task);

/** Block until every submitted task has finished. */
void pph_task_wait_all(void);

/** Index in cl->impls of the variant that ran, or -1 before it ran. */
int pph_task_impl_ran(const struct pph_task *task);

/** pph_task_worker_ran(): the application thread that submitted the task
 * ran it at once, undeferred (see PEPPHER_UNDEFERRED in the README). */
#define PPH_WORKER_APPLICATION (-2)

/** Id of the worker that ran the task, PPH_WORKER_APPLICATION, or -1
 * before it ran. */
int pph_task_worker_ran(const struct pph_task *task);

/** Free a task that is not detached, waiting for it first if submitted.
 *  A task destroyed already, or detached (freed when it ends), is left
 *  alone, said on stderr.  Inside a variant, a task that waits for that
 *  variant's task (pph_task_wait returned -EDEADLK) becomes detached: it
 *  is freed when it ends. */
void pph_task_destroy(struct pph_task *task);

/**
 * Called by a variant that cannot run (its OpenCL kernel does not build,
 * a library it needs is missing) before it returns, having left its data
 * untouched: the runtime disables that variant for the rest of the run
 * and runs the task on another one (or reports that none is left).
 * pph_opencl_kernel() calls it when a build fails.
 */
void pph_variant_failed(void);

/**
 * Called by a variant that gave up part way (a C++ exception, which the
 * backend wrappers compose writes for C++ variants catch and pass on
 * here, why its what()): its call fails with -ECANCELED, counted by
 * pph_failed_calls(), its data as the variant left it, and no other
 * variant runs it.  Said on stderr with the codelet and variant.
 */
void pph_variant_error(const char *why);

/**
 * How many OpenMP threads an OPENMP variant runs with: the size of the
 * team of CPU workers it has for itself while it runs (no other variant
 * runs on them meanwhile).  The dmda scheduler chooses the team size from
 * each size's history; eager and ws give every CPU worker.  Outside a
 * variant: the number of CPU workers.  Composed backend wrappers of OPENMP
 * variants call omp_set_num_threads() with it.
 *
 * The teams' threads should sleep between regions, not spin: libpeppher
 * sets OMP_WAIT_POLICY=passive when it is loaded, unless OMP_WAIT_POLICY or
 * GOMP_SPINCOUNT is set, which libgomp sees when the program links it
 * before libpeppher (as the Makefiles compose writes do: the linking
 * compiler's OpenMP runtime, then pkg-config --libs; pkg-config's
 * openmp_libs names gcc's, libgomp), and LLVM's libomp at its first use.
 */
int pph_openmp_threads(void);

/** @} */

/** \defgroup pph_stats Statistics */
/** @{ */

/** Data transfers between host memory and devices since pph_init(). */
struct pph_transfer_stats {
	unsigned long to_device, to_host;		/**< transfers */
	unsigned long long bytes_to_device, bytes_to_host;
	unsigned long allocations; /**< device buffers allocated */
	unsigned long reuses;	   /**< device buffers reused from the cache */
	unsigned long evictions;   /**< replicas evicted to make room */
	unsigned long prefetches;  /**< copies started when the task was queued */
};

/** Read the transfer counters. */
void pph_transfer_stats_get(struct pph_transfer_stats *stats);

/** Zero the transfer counters. */
void pph_transfer_stats_reset(void);

/**
 * Print per-worker statistics: tasks run, busy time, and how many times
 * each variant ran there, to fp (NULL: stderr).  pph_shutdown() calls it
 * when PEPPHER_STATS=1.
 */
void pph_stats_print(FILE *fp);

/** @} */

#ifdef __cplusplus
}
#endif

/* ranks and owners of distributed runs: rank 0 of 1 outside MPI */
#include <peppher/distributed.h>

#endif /* PEPPHER_RUNTIME_H */
