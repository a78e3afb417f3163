/*
 * Private runtime structures shared by the files of libpeppher.  Names
 * shared across files carry the pph__ prefix.
 */
#ifndef PEPPHER_INTERNAL_H
#define PEPPHER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <peppher/runtime.h>

#include "caller_thread.h"
#include "fpenv.h"
#include "worker_stack.h"

#define PPH_MAX_NODES 8	  /* memory nodes: 0 is host memory */
#define PPH_VERSION_READ (1u << PPH_MAX_NODES) /* pph_data's copied_to */
#define PPH_READERS_STALE 32 /* pph_data's wrote_at, versions ago */
#define PPH_MAX_WORKERS 256
#define PPH_MAX_TEAM_SIZES 9 /* fork-join team sizes: see pph__team_sizes */
#define PPH_CACHE_LINE 64

/* Thread-local variables read on every task: the initial-exec model makes
 * each access a plain load instead of a __tls_get_addr call.  It puts them
 * in the static TLS block, where a library loaded by dlopen finds a small
 * surplus only, shared with any other such library: the few words read on
 * every task only; tables go in struct pph_thread (threads.c). */
#define PPH_TLS __thread __attribute__((tls_model("initial-exec")))

struct pph_worker;

/* ---- data ---- */

enum pph_replica_state { PPH_INVALID, PPH_SHARED, PPH_MODIFIED };

union pph_iface {
	struct pph_vector_iface vector;
	struct pph_variable_iface variable;
	struct pph_matrix_iface matrix;
};

/*
 * The interface first: the host replica's lies in the handle's first
 * cache line (struct pph_data).  The rest changes under the handle's
 * coh_lock, but transfer estimates and the eviction walk read it without
 * (a stale value costs an estimate, never a wrong copy): atomic, so that
 * those reads are defined.
 */
struct pph_replica {
	union pph_iface iface;
	_Atomic enum pph_replica_state state;
	atomic_int allocated; /* device replicas: iface.*.ptr is a device buffer */
	atomic_uint pinned;   /* running tasks using it: not evictable */
	_Atomic uint64_t last_use; /* pph__mem_tick() of its last acquire: for LRU */
};

enum pph_layout { PPH_LAYOUT_VECTOR, PPH_LAYOUT_VARIABLE, PPH_LAYOUT_MATRIX };

/* Where a handle is in its life (data.c); a new one is registered (0). */
enum pph_handle_state {
	PPH_HANDLE_REGISTERED,
	PPH_HANDLE_PARTITIONED, /* blocks made: not used, nor partitioned, until unpartitioned */
	PPH_HANDLE_UNREGISTERING,
	PPH_HANDLE_FREE,	/* its slot is free for the next registration */
};

/* A task that reads a handle and has not finished, for dependency
 * inference (deps.c): a node of the task, listed on the handle. */
struct pph_reader {
	struct pph_task *task;
	struct pph_reader *next;
	struct pph_reader **pprev; /* what points to it; NULL: not listed */
	struct pph_redux_acc *acc; /* PPH_REDUX: the task's accumulator (redux.c) */
};

/*
 * A handle's dependency lock: held for a few instructions, or while a tiny
 * task runs in place, so a waiter spins, then yields (pph__spin_lock in
 * sched.c).  Taking and dropping it is one atomic exchange and one plain
 * store, against a mutex's two locked instructions and its type dispatch
 * (a tenth of submitting a task on one handle).
 */
typedef atomic_int pph_spinlock;

static inline int pph__spin_trylock(pph_spinlock *l)
{
	return !atomic_exchange_explicit(l, 1, memory_order_acquire);
}

void pph__spin_lock(pph_spinlock *l);

static inline void pph__spin_unlock(pph_spinlock *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

/*
 * A task run on the host touches the first cache line only: the
 * dependency fields, and the host replica's interface after them (all of a
 * variable's or a vector's, a matrix's but for ld and elemsize).  A
 * program with many small handles scattered in memory pays a cache miss
 * for each line a task touches.  Device replicas live apart, made with
 * the first of them: a handle used on the host only is three lines, not
 * ten.  Cache-line aligned, a whole number of lines long (slabs of them
 * in data.c).
 */
struct pph_data {
	_Alignas(PPH_CACHE_LINE) pph_spinlock lock; /* protects the dependency fields below */
	enum pph_layout layout;
	struct pph_task *last_writer;
	struct pph_reader *readers; /* unfinished, since last_writer */
	uint64_t bytes; /* the shape's, set at registration (pph__data_size) */
	unsigned nreaders;
	struct pph_replica host; /* node 0, where the registered memory lives */
	/* nodes 1.. at [node - 1]: made with the first device replica (under
	 * coh_lock), freed with the handle; NULL: none valid nor allocated */
	struct pph_replica *_Atomic devices;
	pthread_mutex_t coh_lock; /* replica states and transfers (coherence.c) */
	struct pph_data *prev, *next; /* the handles with device replicas (data.c) */
	_Atomic enum pph_handle_state state; /* data.c; the slot stays readable when freed */
	/* data.c: a block's partitioned handle, NULL for others; a
	 * partitioned handle's number of blocks */
	struct pph_data *parent;
	unsigned nblocks;
	/* redux.c, under lock: the accumulators of PPH_REDUX tasks not
	 * combined yet, newest first, and the operator new ones take */
	struct pph_redux_acc *redux_accs;
	const struct pph_reduction *redux_op;
	/* pph_data_set_host_reads: a writer placed on a device pays the copy
	 * home (pph__transfer_estimate) */
	_Bool host_reads;
	/* coherence.c, under coh_lock (read racily): the node that wrote
	 * the current version (0 for the registered data) and a bit per node it
	 * was copied to, to be read there (by a task, or by the host: node
	 * 0), with PPH_VERSION_READ once read anywhere; then, per node, the
	 * nodes the last version read that was written there was copied to.
	 * pph__transfer_estimate charges a writer on a node those copies:
	 * where its version is likely read next */
	_Atomic uint8_t written_on;
	_Atomic uint16_t copied_to;
	_Atomic uint8_t copied_after[PPH_MAX_NODES];
	/* the versions written so far (wrapping), and per node the count
	 * when it last wrote one: a node's copied_after older than
	 * PPH_READERS_STALE versions is not charged */
	_Atomic uint16_t versions;
	_Atomic uint16_t wrote_at[PPH_MAX_NODES];
	/* deps.c, written under lock: the tasks listed to read the version
	 * the last writer made, and their mean over the versions before (0:
	 * none yet); pph__transfer_estimate shares a copy among a version's
	 * readers */
	atomic_uint version_reads;
	_Atomic float readers_per_version;
	/* coherence.c, under coh_lock: the version's reads acquired so far;
	 * pph__transfer_estimate shares a copy among the readers still to come */
	atomic_uint version_started;
	/* the smart container whose handle this is (containers.c), told of
	 * each call on it once submitted (wrappers.c) */
	struct pph_container *container;
};
_Static_assert(offsetof(struct pph_data, host.iface.vector.elemsize) + sizeof(size_t) <=
		       PPH_CACHE_LINE,
	       "a vector's host interface lies in the handle's first cache line");

/* What a device replica not made yet reads as: invalid, unallocated. */
extern const struct pph_replica pph__no_replica;

/* Can tasks use d: registered, not partitioned (its blocks are used
 * instead) nor unregistered?  0, or -EBUSY / -EINVAL said for what. */
int pph__data_usable(struct pph_data *d, const char *what);

/* data.c: an asynchronous split call's n blocks of parent (rows or
 * elements; equal where sizes is NULL), made without waiting: the parent
 * stays registered, and blocks[i]->parent names it.  0 or an error, no
 * block left made. */
int pph__data_blocks(pph_data_handle parent, unsigned n, const size_t *sizes,
		     pph_data_handle *blocks);
/* data.c: those blocks unregistered, their data home (into the parent's
 * memory) once their tasks are done. */
void pph__data_blocks_drop(unsigned n, pph_data_handle *blocks);

/* The replica of d on node, to read (racy without coh_lock). */
static inline const struct pph_replica *pph__replica(const struct pph_data *d, unsigned node)
{
	const struct pph_replica *dev;

	if (node == 0)
		return &d->host;
	dev = atomic_load_explicit(&d->devices, memory_order_acquire);
	return dev ? &dev[node - 1] : &pph__no_replica;
}

/* The replica of d on device node, to change: coh_lock held, and d's
 * device replicas made (pph__coherence_acquire, or one is allocated). */
static inline struct pph_replica *pph__device_replica(struct pph_data *d, unsigned node)
{
	return &atomic_load_explicit(&d->devices, memory_order_relaxed)[node - 1];
}

/* ---- memory nodes and coherence ---- */

/*
 * How a kind of memory allocates and copies.  A device replica's interface
 * has the host replica's shape, packed (matrix ld == cols), with ptr the
 * device buffer (a cl_mem for OpenCL).
 */
struct pph_node_ops {
	int (*alloc)(unsigned node, size_t bytes, void **buf);
	void (*free)(unsigned node, void *buf);
	/* copy between the host replica and the device replica */
	int (*to_device)(unsigned node, enum pph_layout layout,
			 const union pph_iface *host, union pph_iface *dev);
	int (*to_host)(unsigned node, enum pph_layout layout,
		       const union pph_iface *dev, union pph_iface *host);
	/* wait until the work a variant enqueued on the device is done;
	 * returns 0, or -EIO when it failed (a launch or memory error) */
	int (*sync)(unsigned node);
	/* wait until the copies to the device enqueued so far are done
	 * (errors are sync's to report) */
	void (*wait_copies)(unsigned node);
};

/* driver_opencl.c: add one node per device, at most conf_max unless the
 * environment says (-1: every device); returns how many. */
unsigned pph__opencl_start(int conf_max);
void pph__opencl_stop(void);
/* Make the calling thread the worker of this device (pph_opencl_queue). */
void pph__opencl_bind_thread(void *driver);
/* driver_cuda.c: the same for CUDA devices. */
unsigned pph__cuda_start(int conf_max);
void pph__cuda_stop(void);
void pph__cuda_bind_thread(void *driver);
/* Host memory for container data: pinned (page-locked) when CUDA devices
 * are in use, so that copies run at full speed and asynchronously; zeroed.
 * *pinned says which, for pph__host_free. */
void *pph__host_alloc(size_t bytes, int *pinned);
void pph__host_free(void *p, int pinned);

struct pph_node {
	enum pph_arch arch;
	const struct pph_node_ops *ops; /* NULL for host memory */
	void *driver;			/* the driver's per-device state */
	/* copies to the device enqueued, and how many of them a worker has
	 * waited for (pph__wait_copies_in) */
	atomic_ulong copies_in, copies_waited;
};

/* Register a device memory node; returns its number, or -ENOSPC. */
int pph__node_add(enum pph_arch arch, const struct pph_node_ops *ops, void *driver);
/* Wait for the copies to device node that are still running, so that a
 * variant's measured time is its own, not theirs too. */
void pph__wait_copies_in(unsigned node);

/* Make the replica on node valid for mode (transferring only if it is
 * invalid and mode reads), and invalidate the others if mode writes.
 * Returns 0 or -errno (allocation or copy failure). */
int pph__coherence_acquire(struct pph_data *d, unsigned node, enum pph_access mode);
/* Start copying the task's input to node (a device) now: the buffers it
 * reads whose only hop is host -> node, where room is free (no eviction).
 * Non-blocking copies on the node's queue or stream; nothing is pinned. */
void pph__task_prefetch(const struct pph_task *task, unsigned node);
/* The task that acquired d on node (a device) has finished with it. */
void pph__coherence_release(struct pph_data *d, unsigned node);
/* The replica states of the buffers a task writes, per node, from before
 * it acquired them: so that a variant that fails gives the data back as it
 * was (pph__task_restore_data). */
struct pph_replica_states {
	uint8_t s[PPH_MAX_BUFFERS][PPH_MAX_NODES];
};
/* Acquire every buffer of the task on node, its replicas' interfaces into
 * buffers, and the states of those it writes into saved (unless NULL);
 * on failure none stays acquired.  Returns 0 or -errno. */
int pph__task_acquire_data(struct pph_task *t, unsigned node, void *buffers[],
			   struct pph_replica_states *saved);
/* A variant failed: its written buffers' replicas back to the states
 * saved before (the node it ran on invalid unless it was valid). */
void pph__task_restore_data(struct pph_task *t, const struct pph_replica_states *saved);
void pph__task_release_data(struct pph_task *t, unsigned node);
/* Make the host replica valid (unless fetch is 0: the data is about to be
 * freed, and a copy home would be for nothing) and free every device
 * replica. */
void pph__coherence_drop_devices(struct pph_data *d, int fetch);
/* Count one transfer of bytes to the host (to_host) or to a device. */
void pph__count_transfer(int to_host, uint64_t bytes);
/* Copy from one interface to another between the host and device node
 * (to_host: from the device), with the node's operations; counted and
 * traced as bytes.  Returns 0 or the driver's error. */
int pph__node_copy(unsigned node, enum pph_layout layout, const union pph_iface *from,
		   union pph_iface *to, int to_host, uint64_t bytes);

/* transfer_model.c: latency and bandwidth per device node and direction,
 * measured once per host (after the drivers started) and stored. */
void pph__transfer_model_init(void);
/* Predicted microseconds to copy bytes to node (to_host 0) or from it (1). */
double pph__transfer_time(unsigned node, int to_host, uint64_t bytes);
/* A copy of bytes home from node took us: the node's copies' slowdown
 * over its link's bandwidth learns from it, or where the bandwidth time
 * is under the latency, their latency over the link's (both directions) */
void pph__transfer_observed(unsigned node, uint64_t bytes, double us);
double pph__transfer_slowdown(unsigned node);
double pph__transfer_latency_factor(unsigned node);
/* at pph_shutdown: the slowdowns and latencies learned, stored */
void pph__transfer_model_shutdown(void);
void pph__transfer_model_get(unsigned node, double latency_us[2], double bytes_per_us[2]);
/* for tests: another link for node, this process only (nothing is
 * stored), learning from the copies seen or not (learns 0: the link's
 * times stay as set) */
void pph__transfer_model_set(unsigned node, const double latency_us[2],
			     const double bytes_per_us[2], int learns);

/* wrappers.c: how late the blocks of cl's split calls on workers of arch
 * ended, in microseconds (see split_seen); for tests, set it. */
double pph__split_late_us(const struct pph_codelet *cl, enum pph_arch arch);
void pph__split_set_late(const struct pph_codelet *cl, enum pph_arch arch, double us);
/* What submitting one block of a split call costs its thread, in
 * microseconds (a moving mean; tests set it). */
double pph__split_submit_us(void);
void pph__split_set_submit_us(double us);
/* PEPPHER_STATS: each codelet's calls split by kind, the rows each kind
 * had, its lateness now, and a block's submission. */
void pph__split_print_stats(FILE *fp);

/* memory.c: device allocations, with a cache and eviction under a limit. */
/* Read PEPPHER_LIMIT_*_MEM (before the drivers start): 0, or -EINVAL and
 * pph__mem_limits_error() says why. */
int pph__mem_limits_init(void);
const char *pph__mem_limits_error(void);
/* node's limit in bytes, 0: none */
size_t pph__mem_limit(unsigned node);
void pph__mem_node_init(unsigned node);
void pph__mem_node_release(unsigned node);
int pph__mem_alloc(unsigned node, size_t bytes, void **buf);
/* The same, but -ENOMEM rather than dropping cached buffers or evicting. */
int pph__mem_alloc_free_room(unsigned node, size_t bytes, void **buf);
void pph__mem_free(unsigned node, size_t bytes, void *buf);
/* The driver's word on a node: its memory's size (0: unknown), and whether
 * that memory is the host's; bounds the cache of unused buffers. */
void pph__mem_set_device(unsigned node, size_t device_bytes, int host_memory);
/* That bound in bytes (tests set it), and the bytes cached under it. */
void pph__mem_set_cache_bound(unsigned node, size_t bytes);
size_t pph__mem_cache_bound(unsigned node);
size_t pph__mem_cached(unsigned node);
uint64_t pph__mem_tick(void);
void pph__mem_stats(struct pph_transfer_stats *s);
void pph__mem_stats_reset(void);
/* data.c: the handle whose replica on node is the least recently used
 * one that no task holds, returned with its coh_lock held; or NULL. */
struct pph_data *pph__data_lru(unsigned node);
/* data.c: d got its device replicas (coh_lock held): list it for
 * pph__data_lru and pph__data_flush_all. */
void pph__data_registry_add(struct pph_data *d);

/* At shutdown: bring every registered handle back to host memory and free
 * its device replicas, so handles outlive the devices' drivers. */
void pph__data_flush_all(void);

/* Bytes the handle describes (footprints and transfer estimates). */
static inline uint64_t pph__data_size(const struct pph_data *d)
{
	return d->bytes;
}

/* ---- tasks ---- */

struct pph_successor {
	struct pph_task *task;
	struct pph_successor *next;
	int borrowed; /* the caller's memory (pph__deps_add), not malloc'ed */
};

/*
 * Where a task is in its life; doc/design-notes.md draws the transitions
 * and says where each is made.  Ordered: from PPH_TASK_ENDED on, a task
 * never runs again.
 */
enum pph_task_state {
	PPH_TASK_MADE,		   /* pph_task_create: buffers and arguments may be set */
	PPH_TASK_WAITING,	   /* listed on its handles, counted in rt.pending: waits
				    * for the tasks before it (ndeps) */
	PPH_TASK_QUEUED,	   /* ready: in a scheduler's queue */
	PPH_TASK_FOR_CALLER,	   /* ready: its caller runs it (by_caller; counted) */
	PPH_TASK_RUNNING,	   /* a worker runs it (counted, listed) */
	PPH_TASK_RUNNING_HERE,	   /* the submitting thread runs it: listed on its handles,
				    * not counted */
	PPH_TASK_RUNNING_IN_PLACE, /* the submitting thread runs it in place: it holds its
				    * handles' locks (or has let them go, unlisted), is
				    * listed on none and not counted */
	PPH_TASK_ENDED,		   /* ran, or failed for good: its successors are let go,
				    * no new task waits for it; it leaves its handles */
	PPH_TASK_FINISHED,	   /* off its handles and out of rt.pending: waiters return */
	PPH_TASK_FREE,		   /* destroyed (or detached and finished): in a cache */
};

/*
 * Why dmda put a task where it did, kept for its slice in a PEPPHER_TRACE
 * (set only while tracing): what it was expected to wait there, run and
 * copy, and the earliest end on another memory node (other_worker -1:
 * none), so that a trace says what a task on the CPU was weighed against
 * on the device.  Microseconds.
 */
struct pph_sched_why {
	const char *reason; /* "fastest", "exploring", "refreshing", "setup paid"; NULL: unset */
	float wait, run, copies;
	int other_worker, other_impl;
	float other_wait, other_run, other_copies;
};

/*
 * pph_task_create (task.c) sets the fields its owner sets and submission
 * reads, one by one (a memset compiles to `rep stos`, a fifth of
 * submitting an empty task); pph__task_share sets the rest of those before
 * `handles`, which only a task listed on handles or queued uses: a tiny
 * task run in place at its submission skips them.  A new field there must
 * be set in one of the two.
 */
struct pph_task {
	/* What queues and workers read first, in the first cache line: a
	 * task changes cores when a worker takes it, and each line it
	 * touches is a miss then. */
	const struct pph_codelet *cl;
	struct pph_task *next; /* scheduler queue link */
	unsigned impl_mask; /* bit i: cl->impls[i] may run (PPH_ALL_IMPLS) */
	int priority;	 /* higher runs first among ready tasks */
	int sched_impl;	    /* variant the scheduler chose, or -1 */
	unsigned sched_team; /* CPU workers a fork-join variant gets; 0: all */
	double sched_pred;  /* its predicted microseconds (dmda) */
	double sched_pushed_us; /* when dmda queued it, where timed (else 0) */
	int sched_refresh;  /* dmda runs it to refresh a stale history */
	uint64_t seq; /* queue number, given when the task may be queued */
	unsigned nbuffers;
	int detached;
	uint32_t footprint; /* of the data shapes, for performance models */
	_Atomic enum pph_task_state state;
	/* its scheduler chose a team or a run predicted longer than
	 * PPH_YIELD_WAIT_US: a thread waiting for it sleeps at once (task.c) */
	atomic_bool sleep_wait;
	int shared; /* pph__task_share has set its fields */
	unsigned queued_archs; /* readyq: bit a: a worker of arch a can run it */
	double size;	    /* bytes of data accessed, or its work (pph_call_work) */
	double work;	    /* pph_call_work when it was made: > 0 replaces the
			     * bytes in its footprint and size */

	void *arg;	/* arg_inline, or malloc'ed when larger */
	size_t arg_size;
	void (*callback)(void *);
	void *callback_data;

	/* set by the thread that runs it */
	int impl_ran;
	/* errno its variant starts with, and what the variant left: a
	 * synchronous call's caller sees it on return (wrappers.c), as if
	 * the function had run on its own thread */
	int errno_value;
	/* its submitter's rounding and traps, the flags its variant raised
	 * (fpenv.h; set when shared: a task run in place runs on its
	 * submitter's thread) */
	struct pph_fpenv fpenv;
	int worker_ran;
	double ran_us; /* its variant's run on a worker, in microseconds */
	/* dmda: queued for idle CPU workers, so that a synchronous call's
	 * wait beyond ran_us is the hand-over's cost alone */
	int handed_idle;
	/* dmda, while tracing: off the first cache lines, which every task
	 * touches (pph__task_share clears its reason) */
	struct pph_sched_why sched_why;

	/* dependencies (deps.c) */
	atomic_int refs;	  /* owner + handles that remember it */
	atomic_int ndeps;	  /* unfinished predecessors + 1 until submitted */
	pthread_mutex_t lock;	  /* protects successors, and state's move to ENDED */
	int error; /* -errno: no variant could run it (its data is as it was) */
	int by_call; /* made by a call of wrappers.c, which destroys it */
	/* a synchronous call's task that its caller runs on its own thread
	 * (PPH_IMPL_CALLER_THREAD variants): ready, it is not queued but
	 * handed back (PPH_TASK_FOR_CALLER) */
	int by_caller;
	/* a split call's block, held to its kind's variants: the variants
	 * the call allows, tried once its kind has none left (0: none) */
	unsigned fallback_mask;
	struct pph_successor *successors;
	/* an asynchronous split call's (wrappers.c), set before submission:
	 * the task listed with it on every handle, in the same handle lock
	 * (its gather, prelisted then: its own listing is skipped); a task
	 * it waits for beyond its handles, through after_node */
	struct pph_task *twin;
	int prelisted;
	struct pph_task *after;
	struct pph_successor *after_node;

	/* Last: not cleared when a task is made (clearing them was a quarter
	 * of submitting an empty task): nbuffers and arg_size say what is
	 * valid; deps.c sets the reader nodes it uses. */
	pph_data_handle handles[PPH_MAX_BUFFERS];
	enum pph_access modes[PPH_MAX_BUFFERS];
	max_align_t arg_inline[4];
	struct pph_reader reader_nodes[PPH_MAX_BUFFERS];
};

/*
 * The one way a task finishes, whichever way it ran (its state says
 * which): it lets its successors go and leaves its handles, leaves
 * rt.pending if it was counted there, makes its waiters return, and is
 * released if detached.  A detached task run in place, which nobody else
 * ever saw, goes straight back to the thread's cache.
 */
void pph__task_finish(struct pph_task *task);
/* A ready task goes to the scheduler (submit.c); one no variant is left
 * for (disabled since its submission) fails with -EIO instead. */
void pph__task_enqueue(struct pph_task *task);
void pph__task_release(struct pph_task *task);
/* Free a task nobody else ever saw (never shared): back to the cache. */
void pph__task_recycle(struct pph_task *task);
/* Set the fields a task needs once other threads or handles may see it:
 * before it is listed on handles or queued (pph_task_create leaves them). */
void pph__task_share(struct pph_task *task);
/* Free the recycled task structures (at shutdown). */
void pph__task_cache_free(void);
/* Block until the task has finished (whoever owns it). */
void pph__task_wait_finished(struct pph_task *task);
/* task.c: a call while the runtime is not running: says why (once until
 * the next pph_init); returns -ENODEV. */
int pph__not_running(const char *what);
/* init.c: this process is a child forked while the runtime ran (the
 * parent's); the runtime does not run here, nor can it start. */
extern int pph__forked_child;
/* In such a child, pph__not_running(what); else 0: for the calls that
 * work without the runtime but would wait for the parent's tasks. */
int pph__refused_in_forked_child(const char *what);

/* deps.c: share a submitted task and list it on its handles after the
 * tasks it must wait for (counted in its ndeps). */
void pph__deps_list(struct pph_task *task);
/*
 * deps.c: an edge no handle gives, for an asynchronous split call
 * (wrappers.c): task, not submitted yet, also waits for pred, a task with
 * handles that its owner keeps alive, through node (the caller's memory,
 * until task runs: nothing to allocate, nothing to fail).  Both are
 * shared: a shared task is never run in place, where it would be listed
 * nowhere and let no successor go.  A task's `after` is added so when it
 * is listed, past every refusal of its submission.
 */
void pph__deps_add(struct pph_task *pred, struct pph_task *task, struct pph_successor *node);
/* submit.c: pph_task_submit for a caller counted by pph__enter, whose
 * tasks pph_shutdown waits for: not refused for stopping (a split call's
 * gather, after its blocks). */
int pph__task_submit_entered(struct pph_task *task);
/* deps.c: the task ended (PPH_TASK_ENDED): let its successors go (the
 * ready ones are enqueued) and leave its handles. */
void pph__deps_leave(struct pph_task *task);
/* deps.c: wait for the submitted tasks the host must wait for before it
 * accesses the handle with mode (writers for a read, all for a write). */
void pph__deps_host_wait(struct pph_data *data, enum pph_access mode);
/* deps.c: wait until no task uses the handle, then drop its references. */
void pph__deps_data_wait(struct pph_data *data);
/* deps.c, for tasks run in place: lock the task's handles if none lists an
 * unfinished task it would wait for (else 0, nothing locked); unlock them;
 * list the task on them and unlock them. */
int pph__deps_hold(struct pph_task *task);
void pph__deps_unhold(struct pph_task *task);
void pph__deps_list_held(struct pph_task *task);

/* ---- reductions (redux.c) ---- */

/* A PPH_REDUX task's private accumulator: the handle's shape, packed, in
 * host memory, combined into the data by a combine task.  A task that
 * runs on a device has a copy there while it runs (redux.c). */
struct pph_redux_acc {
	struct pph_redux_acc *next; /* the one submitted before */
	const struct pph_reduction *op;
	enum pph_layout layout;
	int ready; /* set to the identity: its task acquired it */
	union pph_iface iface;
	/* the copy on device node dev_node, while a task holds it (else
	 * dev_node 0) */
	unsigned dev_node;
	union pph_iface dev_iface;
};

/* Some handle has had an operator set: submissions look for PPH_REDUX. */
extern atomic_int pph__redux_used;
/* The codelet of combine tasks: deps.c lists one as taking the handle's
 * accumulators. */
extern const struct pph_codelet pph__redux_combine_cl;
/* pph_task_submit, before anything else, once pph__redux_used: checks the
 * task's PPH_REDUX buffers (an operator set, no other mode on the handle)
 * and gives each an accumulator; and, before a buffer accessed in another
 * mode, combines the handle's accumulators (submits a combine task).
 * Returns 0, -EINVAL or -ENOMEM. */
int pph__redux_submit(struct pph_task *task);
/* A task refused after pph__redux_submit gave it accumulators (no worker
 * can run it): they are freed, the task stays as made. */
void pph__redux_unsubmit(struct pph_task *task);
/* The handle is about to be accessed from the host (acquire, partition,
 * unregister): combine its accumulators first. */
void pph__redux_close(struct pph_data *d);
/* deps.c, under d->lock, as task is listed on d: a PPH_REDUX task's
 * accumulator joins the handle's, a combine task takes them. */
void pph__redux_list_locked(struct pph_task *task, unsigned i, struct pph_data *d,
			    enum pph_access mode);
/* coherence.c: buffer i of a PPH_REDUX task: its accumulator, set to the
 * identity. */
void *pph__redux_buffer(struct pph_task *task, unsigned i);
/* The same for a task about to run on node: on a device, a copy of the
 * accumulator set to the identity there.  Returns 0 or -errno (no device
 * memory, a failed copy), with nothing held. */
int pph__redux_acquire(struct pph_task *task, unsigned i, unsigned node, void **buffer);
/* The task ran on node without an error: its accumulators' device copies
 * come home.  Returns 0 or the driver's error. */
int pph__redux_fetch(struct pph_task *task, unsigned node);
/* Free buffer i's device copy, if it has one. */
void pph__redux_release(struct pph_task *task, unsigned i);

/* ---- scheduling ---- */

/*
 * A queue of ready tasks ordered by priority, first in first out within a
 * priority.  The head may be read without the owner's lock, to spin on it or
 * skip an empty queue.
 */
struct pph_fifo {
	struct pph_task *_Atomic head;
	struct pph_task *tail;
};

void pph__fifo_push(struct pph_fifo *f, struct pph_task *t);
/* Unlink the first task a worker of arch can run, or NULL. */
struct pph_task *pph__fifo_take(struct pph_fifo *f, enum pph_arch arch);
/* Unlink the tasks no worker of archs (a mask) can run, oldest first
 * through ->next. */
struct pph_task *pph__fifo_take_stranded(struct pph_fifo *f, unsigned archs);

/*
 * A ready queue that any thread pushes to without a lock: tasks go onto an
 * atomic stack (push only, so no ABA) that a popping worker moves, in
 * order, into the priority FIFO under the lock.  Only sleeping workers are
 * signalled.  Used whole by eager, one per worker by dmda.
 */
struct pph_readyq {
	struct pph_task *_Atomic incoming; /* newest first */
	/* per worker architecture: workers in cond_wait, and queued tasks
	 * (incoming or in fifo) that such a worker could run when pushed, so
	 * that a worker with nothing to run neither scans nor is woken;
	 * and workers spinning for a task, which a push does not need to
	 * wake a sleeper for */
	atomic_uint sleepers[PPH_ARCH_COUNT];
	atomic_long runnable[PPH_ARCH_COUNT];
	atomic_long spinning[PPH_ARCH_COUNT];
	/* its worker is to look at other queues (pph__readyq_nudge) */
	atomic_int nudged;
	pthread_mutex_t lock;		   /* fifo, stopping, cond */
	pthread_cond_t cond;
	struct pph_fifo fifo;
	int stopping;
};

void pph__readyq_init(struct pph_readyq *q);
void pph__readyq_deinit(struct pph_readyq *q);
void pph__readyq_push(struct pph_readyq *q, struct pph_task *t);
/* Unlink the tasks of q that no worker of archs (a mask of enum pph_arch)
 * can run (a variant was disabled since they were queued), oldest first
 * through ->next. */
struct pph_task *pph__readyq_take_stranded(struct pph_readyq *q, unsigned archs);
/* The architectures that have workers, as a mask. */
unsigned pph__worker_archs(void);
/* Block until a task a worker of arch can run, or NULL once stopped or
 * nudged. */
struct pph_task *pph__readyq_pop(struct pph_readyq *q, enum pph_arch arch);
/* Make the worker blocked in (or about to block in) pph__readyq_pop return
 * NULL, so that it looks for work elsewhere. */
void pph__readyq_nudge(struct pph_readyq *q);
int pph__readyq_stopped(struct pph_readyq *q);
/* The same without blocking: NULL when none is queued now. */
struct pph_task *pph__readyq_try_pop(struct pph_readyq *q, enum pph_arch arch);
void pph__readyq_stop(struct pph_readyq *q);
/* Hold back, on this thread, the wakes its pushes and nudges would make
 * until pph__wakes_release: a burst of tasks is queued before the workers
 * it wakes compete for this thread's core.  Nothing in between may wait
 * for a worker. */
void pph__wakes_hold(void);
void pph__wakes_release(void);
int pph__wakes_held(void);

struct pph_sched_policy {
	const char *name;
	const char *description;
	int (*init)(void);
	void (*deinit)(void);
	void (*push)(struct pph_task *task);
	/* block until a task this worker can run, or NULL at shutdown */
	struct pph_task *(*pop)(struct pph_worker *worker);
	/* a ready task this worker can run, its own queue's first, or NULL
	 * at once: for a worker that waits inside a variant (nested calls) */
	struct pph_task *(*try_pop)(struct pph_worker *worker);
	void (*wake_all)(void);
	/* the variant of a task the worker took has returned (NULL: not
	 * needed); before the task finishes and its successors are pushed */
	void (*ran)(struct pph_worker *worker, const struct pph_task *task);
	/* its own lines of PEPPHER_STATS (NULL: none) */
	void (*print_stats)(FILE *fp);
	/* a variant was disabled: tasks queued where no worker that can
	 * still run them takes from are placed again (pph__task_place_again:
	 * to another variant, or failed when none is left) */
	void (*variant_disabled)(void);
};

extern const struct pph_sched_policy pph__sched_eager;
extern const struct pph_sched_policy pph__sched_ws;
extern const struct pph_sched_policy pph__sched_dmda;

/* Predicted microseconds to make the task's data valid on node (the data
 * layer's estimate; 0 when everything is already there); shared: each copy
 * in divided among the readers of its version (dmda's choice of one task),
 * else whole (a hybrid split's block, where few blocks go to a device). */
double pph__transfer_estimate(const struct pph_task *task, unsigned node, int shared);

const struct pph_sched_policy *pph__sched_find(const char *name);
const struct pph_sched_policy *pph__sched_default(void);
void pph__sched_list(FILE *fp);

/* Variants that failed (pph_variant_failed) are disabled for the run. */
extern atomic_int pph__any_disabled;
unsigned pph__impl_disabled_mask(const struct pph_codelet *cl);
void pph__impl_disable(const struct pph_codelet *cl, unsigned i);
void pph__impl_enable_all(void); /* at shutdown */

/* May the task run cl->impls[i]?  Variants past the 32nd always may,
 * unless disabled. */
static inline int pph__impl_allowed(const struct pph_task *t, unsigned i)
{
	if (i < 32 && !(t->impl_mask >> i & 1u))
		return 0;
	return !atomic_load_explicit(&pph__any_disabled, memory_order_relaxed) || i >= 32 ||
	       !(pph__impl_disabled_mask(t->cl) >> i & 1u);
}

/* Can some worker run some variant the task may run? */
int pph__task_runnable(const struct pph_task *task);

/* Can a worker of this arch run variant impl? */
static inline int pph__arch_can_run(enum pph_arch worker, enum pph_arch impl)
{
	/* OpenMP variants run on CPU workers */
	if (worker == PPH_ARCH_CPU)
		return impl == PPH_ARCH_CPU || impl == PPH_ARCH_OPENMP;
	return worker == impl;
}

/* Index of the variant to run on worker for task (forced, else eager's
 * round robin over the runnable ones); -1 when none. */
int pph__choose_impl(const struct pph_task *task, enum pph_arch arch);

/* Poll for a short while (some microseconds) until done(arg) is true,
 * cheaper than sleeping and being woken when the wait is short; returns
 * done(arg). */
int pph__spin_until(int (*done)(const void *), const void *arg);
/* The same, then yielding for yield_us more microseconds. */
int pph__spin_until_us(int (*done)(const void *), const void *arg, double yield_us);

/* ---- workers ---- */

struct pph_impl_stat {
	const struct pph_codelet *cl;
	unsigned impl;
	unsigned threads; /* a fork-join variant's team size, 0 for others */
	unsigned long count;
	double ms;
};

struct pph_trace_event {
	const struct pph_codelet *cl; /* NULL for a transfer */
	unsigned impl;
	int to_host;	/* transfers: the direction */
	uint64_t bytes; /* transfers: the size */
	const char *cat; /* "task", "transfer", ... */
	double start, dur; /* microseconds since the trace began */
	struct pph_sched_why why; /* tasks placed by dmda */
};

struct pph_worker {
	unsigned id;
	enum pph_arch arch;
	unsigned node; /* memory node the worker's variants access */
	int core;      /* PU bound to, -1 if none */
	unsigned leads; /* CPU workers: bit k, it leads a team of the k-th size
			   (pph__team_sizes; workers.c's team_leader: one size
			   of several threads at most) */
	pthread_t thread;
	/* statistics, written by this worker only, at every task: on a cache
	 * line of their own, not on the one above, which dmda reads for
	 * every worker at every choice (on 16 cores a choice cost 2.5-3 us) */
	_Alignas(PPH_CACHE_LINE) unsigned long ntasks;
	double busy_ms;
	struct pph_impl_stat *stats;
	size_t nstats;
	int variant_failed; /* set by pph_variant_failed() during a task */
	/* the task whose variant holds this worker's team locks (team_enter),
	 * so that a wait inside it can let them go while it runs other tasks */
	const struct pph_task *team_task;
	int team_impl;
	/*
	 * CPU workers: a CPU variant runs holding its worker's team_lock
	 * shared; a fork-join (OPENMP) variant holds the team_lock of every
	 * worker of its team exclusive, taken in worker order, so its OpenMP
	 * threads have those cores (writers preferred: it waits only for the
	 * tasks already running there).  Taken only once a codelet with an
	 * OPENMP variant has been submitted.
	 */
	pthread_rwlock_t team_lock;
	/* its team_lock is held exclusive by a team (set after taking it,
	 * cleared before letting it go): a worker that finds it taken gives
	 * its task back instead of waiting for the team (team_enter) */
	atomic_int team_held;
	unsigned team_threads; /* team size of the fork-join variant running */
	int team_bound;        /* its thread bound to the team's cores meanwhile */
	unsigned pinned_team;  /* the team size whose OpenMP threads it pinned last */
	int pins_held;         /* and whether they are pinned (else, bound together) */
	/* the largest OpenMP team this worker's thread has started: a larger
	 * one starts threads, a one-time cost its run does not record */
	unsigned omp_started;
	/* trace events, written by this worker only (trace.c) */
	struct pph_trace_event *trace;
	size_t ntrace, trace_cap;
};

struct pph_runtime {
	/* atomic: application threads read it unlocked as pph_init and
	 * pph_shutdown write it (a plain load on x86) */
	atomic_int initialized;
	const struct pph_sched_policy *sched;
	struct pph_worker *workers;
	unsigned nworkers;
	unsigned arch_workers[PPH_ARCH_COUNT];
	/* Counters written per task each have a cache line of their own:
	 * on the line of what every worker reads per task (sched, workers,
	 * arch_workers, has_parallel) they would invalidate it at each
	 * submission. */
	_Alignas(PPH_CACHE_LINE) atomic_uint_fast64_t seq;

	struct pph_node nodes[PPH_MAX_NODES]; /* [0] is host memory */
	unsigned nnodes;
	atomic_ulong transfers[2];	/* to device, to host */
	atomic_ullong transfer_bytes[2];
	atomic_ulong prefetches; /* copies to devices started when a task was queued */

	atomic_int has_parallel; /* an OPENMP variant was submitted */
	/* calls that failed since pph_init (pph_failed_calls): kept after
	 * pph_shutdown, which PEPPHER_SHUTDOWN() asks once done */
	atomic_ulong failed_calls;
	int undeferred; /* submit.c: tasks may run at submission (PEPPHER_UNDEFERRED) */
	int stats; /* pph_shutdown prints the statistics (PEPPHER_STATS=1) */
	double tiny_us;	/* submit.c: tasks predicted shorter run in place (PEPPHER_TINY_US) */
	size_t stack_bytes; /* workers.c: a worker's stack (PEPPHER_STACKSIZE), 0: unset */
	enum pph_cuda_wait {
		PPH_CUDA_WAIT_AUTO, PPH_CUDA_WAIT_SPIN, PPH_CUDA_WAIT_YIELD, PPH_CUDA_WAIT_BLOCK
	} cuda_wait; /* driver_cuda.c: how a CUDA worker waits (PEPPHER_CUDA_WAIT) */
	/* pph_init calls and variants disabled or enabled so far: what a
	 * thread cached of the runtime is stale after one (submit.c) */
	atomic_uint generation;

	/* tasks submitted and not finished, for pph_task_wait_all */
	_Alignas(PPH_CACHE_LINE) atomic_ulong pending;
	atomic_uint waiters; /* threads waiting for a task: finishers signal them */
	/* threads in pph_task_wait_all: signalled by the last task only (a
	 * broadcast at every task's end woke the waiting program thread once
	 * a task, taking a core from the workers: 49,696 sleeps for 45,760
	 * tasks of bench/apps' Cholesky with 64 x 64 tiles) */
	atomic_uint all_waiters;
	atomic_ulong waits_slept; /* waits for a task that slept (task.c) */
	pthread_mutex_t lock;
	pthread_cond_t done_cond, all_done_cond;

	/* pph_shutdown refuses application threads' submissions from the
	 * moment it stops (stopping), once those under way (submitting)
	 * are in: one that read the runtime running as it was stopped
	 * pushed to freed queues, or was accepted and never ran */
	_Alignas(PPH_CACHE_LINE) atomic_int submitting;
	atomic_int stopping;

	/* submit.c: what handing a synchronous call's task to idle workers
	 * costs its caller beyond the run (wake-ups), in microseconds: a
	 * moving mean (pph__task_submit_and_wait) */
	_Alignas(PPH_CACHE_LINE) _Atomic double handover_us;
};

extern struct pph_runtime pph__rt;

/*
 * An application thread's entry into what pph_shutdown tears down (a
 * call's whole wrapper, a data call): counted in pph__rt.submitting, which
 * pph_shutdown waits to see 0 once it has set stopping.  Returns 1 (leave
 * with pph__leave), 0 in a task or on a worker (pph_shutdown waits for
 * those: nothing to leave), or -ENODEV when pph_shutdown is stopping the
 * runtime (not entered).  An atomic add and load entering, a sub leaving,
 * the outermost entry of a thread only.
 */
int pph__enter(void);
void pph__leave(void);
/* pph__enter for what must be done anyway (unregistering, bringing data
 * home): while pph_shutdown stops the runtime, waits for it to end, and
 * goes on with the runtime stopped (its data flushed home).  1 or 0 as
 * pph__enter. */
int pph__enter_finishing(void);
/* -ENODEV for what pph_shutdown refuses as it stops the runtime, said
 * once a shutdown (submit.c). */
int pph__shutting_down(void);
/* Wait for pph_shutdown's stopping to end (init.c). */
void pph__wait_stopped(void);

/* The worker running on this thread, NULL on application threads. */
extern PPH_TLS struct pph_worker *pph__current_worker;
/* The task whose variant this thread runs, the innermost (NULL between
 * tasks), and that variant: a wait inside it for what waits for that
 * task is refused (pph__waits_for_running), and its OpenCL build errors
 * name the variant. */
struct pph_running {
	const struct pph_task *task;
	unsigned impl;
};
extern PPH_TLS struct pph_running pph__running;
/* Would access to d in mode, from inside the variant this thread runs,
 * wait for that variant's task to end (it holds d, one of them writing)?
 * Then it says so, for what, and returns -EDEADLK; else 0. */
int pph__waits_for_running(const struct pph_data *d, enum pph_access mode, const char *what);
/* Does the variant running on this thread hold handle (its task uses it)?
 * Then what (unregistering it, destroying its container) would wait for
 * that task for good: said, and refused. */
int pph__data_held_here(pph_data_handle handle, const char *what);
/* pph_data_unregister, but the host copy is not made valid: for a
 * container that owns its memory and frees it next (a copy home of what a
 * device wrote last would be thrown away). */
void pph__data_discard(pph_data_handle handle);
/* Smart containers (containers/containers.c, built into both runtimes):
 * handle is container c's; a call on c with these modes was submitted
 * (the calls' wrappers tell each container of theirs). */
struct pph_container;
void pph__data_set_container(pph_data_handle handle, struct pph_container *c);
void pph__container_called(struct pph_container *c, enum pph_access mode);
/* Microseconds of one-time costs paid on this thread (OpenCL programs
 * built): what a run spent on them is taken out of its recorded time. */
extern PPH_TLS double pph__one_time_us;

/* Start the workers; openmp as pph_conf's: 1 (or -1 where the program
 * links OpenMP) also starts the OpenMP threads of each CPU worker's teams
 * before returning. */
int pph__workers_start(unsigned ncpu, int ncuda, int nopencl, int openmp);
/* A worker waits inside a variant (a nested call, pph_task_wait, a host
 * access): it runs ready tasks itself until done(arg), so that a task only
 * it could run, or one queued behind it, never waits for it forever. */
void pph__worker_help_until(struct pph_worker *w, int (*done)(const void *), const void *arg);
/* Is this thread one of the OpenMP threads a CPU worker's fork-join
 * variants start (not the worker's own)?  It only runs inside a team's
 * region, on a core the team holds. */
int pph__team_thread(void);
/* Such a thread waits (a call from inside the region, pph_task_wait, a
 * host access): it runs ready tasks itself until done(arg), on its core,
 * since the team's members cannot while the team holds theirs. */
void pph__team_help_until(int (*done)(const void *), const void *arg);
/* Run t, taken from a queue, on this team thread (submit.c). */
void pph__task_run_in_team(struct pph_task *t);
void pph__workers_stop(void);

/* Variant impl said it could not run the task (pph_variant_failed), having
 * left its data as it found it (released): disable the variant, and queue
 * the task for another one, or fail it if there is none. */
void pph__task_variant_failed(struct pph_task *t, int impl);
/* The variant t was placed for can no longer run it (disabled since):
 * queue it for another one, or fail it (-EIO) if there is none. */
void pph__task_place_again(struct pph_task *t);
/* Can a variant t allows still run it?  A split call's block whose kind
 * has none left may take any the call allows (its fallback_mask, which
 * becomes its impl_mask): the block is done, on another kind of worker,
 * rather than the call left short of it. */
int pph__task_still_runnable(struct pph_task *t);

/* submit.c: the default of PEPPHER_TINY_US */
#define PPH_TINY_US_DEFAULT 0.2
/* task.c: how long a thread waiting for a task yields before it sleeps */
#define PPH_YIELD_WAIT_US 1000.0
/* submit.c: the task this thread runs in place is listed on its handles
 * and lets their locks go: called by every entry point that may lock a
 * handle or wait, before it does. */
void pph__list_held_task(void);
/* submit.c: submit t and wait for it (a synchronous call).  On an
 * application thread, the scheduler may give t back to it to run in the
 * place of an idle CPU worker (pph__task_claim) instead of queueing it:
 * only while pph__task_claimable(t). */
int pph__task_submit_and_wait(struct pph_task *t);
/* task.c: wait until t is for its caller to run (1) or finished (0) */
int pph__task_wait_for_caller(struct pph_task *t);
/* task.c: a ready by_caller task to its caller, waiting in the above */
void pph__task_hand_to_caller(struct pph_task *t);
/* submit.c: of the variants in mask, those some worker could run now */
unsigned pph__variants_runnable(const struct pph_codelet *cl, unsigned mask);
int pph__task_claimable(const struct pph_task *t);
void pph__task_claim(struct pph_task *t, struct pph_worker *w);
/* submit.c: pph_variant_failed() on an application thread. */
void pph__here_variant_failed(void);
/* submit.c: is this thread running a task's variant (a worker, or an
 * application thread running one at its submission)? */
int pph__running_task_here(void);
/* submit.c: variants this thread runs at submission (one may submit
 * another); end the tasks of those it left by longjmp, as seen from frame,
 * an entry into the runtime (see here_runs). */
extern PPH_TLS unsigned pph__running_here;
void pph__here_left_slow(const void *frame);
static inline void pph__here_left(const void *frame)
{
	if (pph__running_here)
		pph__here_left_slow(frame);
}
#include "failures.h" /* pph__codelet_check */
/* init.c: why the last pph_init failed, or NULL. */
const char *pph__init_error(void);

/* Fork-join teams: the CPU workers [base, base + threads) that CPU worker w
 * runs a fork-join variant with.  Team sizes are the powers of two below
 * the number of CPU workers, and that number; pph__team_sizes fills sizes
 * (PPH_MAX_TEAM_SIZES at most) and returns how many. */
static inline unsigned pph__team_base(unsigned w, unsigned threads)
{
	unsigned ncpu = pph__rt.arch_workers[PPH_ARCH_CPU];
	unsigned base = w / threads * threads;

	/* aligned blocks; the last one ends at the last CPU worker */
	return base + threads > ncpu ? ncpu - threads : base;
}
unsigned pph__team_sizes(unsigned sizes[PPH_MAX_TEAM_SIZES]);
/* The team size a task's fork-join variant gets: what the scheduler chose,
 * or every CPU worker. */
unsigned pph__task_team(const struct pph_task *t);
/* The core an application thread holds while it runs a task in an idle
 * CPU worker's place (submit.c, pph__run_claimed): that worker's team
 * lock, shared, or exclusive for a fork-join variant of one thread. */
struct pph_core_hold {
	struct pph_worker *w; /* NULL: none */
	int exclusive, locked;
};
/* Hold w's core (NULL: none), letting go of the one held before, which
 * goes to *outer; pph__core_give(outer) holds that one again. */
void pph__core_take(struct pph_worker *w, int exclusive, struct pph_core_hold *outer);
void pph__core_give(const struct pph_core_hold *outer);
/* A task worker w ran, of ms; threads: the team of a fork-join variant. */
void pph__worker_record(struct pph_worker *w, const struct pph_task *task, double ms,
			unsigned threads);
/* A task an application thread ran itself, not a tiny one (stats.c). */
void pph__app_record(const struct pph_task *task, double ms);
void pph__stats_free(void);

/* Microseconds of CLOCK_MONOTONIC. */
double pph__now_us(void);

/* ---- per-thread state kept off TLS (threads.c) ---- */

/* A variant run at submission on this thread (submit.c, here_runs). */
#define PPH_HERE_DEPTH 32
struct pph_here_run {
	struct pph_task *t;
	unsigned impl;
	const char *frame;	  /* of the function that called the variant */
	struct pph_worker *w;	  /* run in w's place (claimed), holding its core: */
	struct pph_core_hold outer; /* the hold to give it back for */
	struct pph_running running; /* pph__running before it, again once it is left */
	int in_submission;	    /* run inside a submission counted in rt.submitting */
};

/*
 * What a thread keeps that is too large for static TLS, allocated at its
 * first need and found through pph__thread: freed when the thread ends,
 * or with the library when it is unloaded (dlclose).  Only this thread
 * uses it, but for the list, which pph__threads_unload walks.
 */
struct pph_thread {
	struct pph_thread *prev, *next; /* the threads that have one: threads_lock */
	struct pph_here_run here_runs[PPH_HERE_DEPTH]; /* submit.c */
	unsigned nheld;				       /* sched.c: wakes held back */
	struct pph_readyq *held[PPH_MAX_WORKERS];
	struct pph_thread **self;	     /* its pph__thread (its TLS) */
	struct pph_task_cache *task_cache; /* task.c: its cache of tasks (its TLS) */
	struct pph_dmda_scratch *scratch; /* sched_dmda.c: its choices' tables */
};
extern PPH_TLS struct pph_thread *pph__thread;
/* This thread's, made at its first call; NULL if there is no memory. */
struct pph_thread *pph__thread_make(void);
static inline struct pph_thread *pph__thread_get(void)
{
	return pph__thread ? pph__thread : pph__thread_make();
}
/* The library is unloaded: every thread's state freed, the key deleted. */
void pph__threads_unload(void);
/* What each file keeps per thread, given back when the thread ends (on
 * that thread), or freed when the library is unloaded (any thread's). */
void pph__task_cache_thread_exit(void);
void pph__task_cache_free_of(struct pph_thread *th);
void pph__dmda_scratch_free(struct pph_thread *th);
/* data.c: the handles' slabs, freed when the library is unloaded */
void pph__data_slabs_free(void);

/* trace.c: PEPPHER_TRACE */
int pph__trace_init(void);
/* pph_init failed after pph__trace_init: the file as it was (a file that
 * was not there removed), tracing off. */
void pph__trace_abandon(void);
int pph__trace_enabled(void);
/* why: the task's placement (NULL: none recorded) */
void pph__trace_slice(struct pph_worker *w, const struct pph_codelet *cl, unsigned impl,
		      const char *cat, double start_us, double dur_us,
		      const struct pph_sched_why *why);
void pph__trace_shutdown(void);
/* A transfer made by the calling worker (nothing on other threads). */
void pph__trace_transfer(int to_host, uint64_t bytes, double start_us, double dur_us);

#endif
