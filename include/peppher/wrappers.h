/*
 * PEPPHER-C: what the code compose generates calls, and nothing else
 * should: an entry wrapper's calls into the runtime.  The peppher.h that
 * compose writes includes this header; applications and variants use
 * <peppher/runtime.h> and <peppher/containers.h>.
 */
#ifndef PEPPHER_WRAPPERS_H
#define PEPPHER_WRAPPERS_H

#include <peppher/runtime.h>
#include <peppher/containers.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pph_wrappers Calls made by generated entry wrappers */
/** @{ */

/**
 * Create, fill, submit, wait for and destroy a task that may run the
 * variants in impl_mask (PPH_ALL_IMPLS: any): the synchronous call an entry
 * wrapper makes for raw-pointer arguments.  Returns as pph_task_submit
 * (-ENODEV also when impl_mask allows no variant), or -ENOMEM / -EINVAL
 * from building the task, -EINVAL for a NULL cl, NULL handles or modes
 * with nbuffers > 0, or a NULL arg with arg_size > 0; and as pph_task_wait
 * when the task ran on no variant (sync only).  The variant starts with the
 * caller's errno, and a successful synchronous call returns with the errno
 * the variant left, on whichever thread it ran: a wrapped library function
 * reports as it would called directly (gzopen's ENOENT).  The asynchronous
 * and split calls leave the caller's errno as it was.  Likewise the
 * floating-point environment: a CPU or OpenMP variant runs with its
 * submitter's rounding mode and enabled traps, and a synchronous call
 * raises on its caller the exception flags (not FE_INEXACT) it raised.
 */
int pph_call_sync(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		  const pph_data_handle *handles, const enum pph_access *modes,
		  const void *arg, size_t arg_size);

/**
 * The same, without waiting: the task is detached and runs when its
 * dependencies allow (the call an entry wrapper makes when every pointer
 * argument is a container).  Returns as pph_call_sync.
 */
int pph_call_async(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		   const pph_data_handle *handles, const enum pph_access *modes,
		   const void *arg, size_t arg_size);

/**
 * One call split into sub-tasks: buffer i is partitioned into parts[i]
 * blocks when parts[i] > 0, into one block per worker when parts[i] == 0,
 * and passed whole when parts[i] < 0 (every partitioned buffer must have
 * the same count).  Sub-task k gets block k of each partitioned buffer and
 * the whole of the others.  Waits for every sub-task and gathers the blocks.  Returns as
 * pph_call_sync, or -EINVAL for unequal part counts, or the error of a block
 * no variant could run (-EIO; that block's data as it was).  A block placed
 * on one kind of worker whose variants there all fail runs any variant the
 * call allows.
 */
int pph_call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			 const pph_data_handle *handles, const enum pph_access *modes,
			 const int *parts, const void *arg, size_t arg_size);

/**
 * The same, without waiting (the call an entry wrapper makes when every
 * pointer argument is a container): the blocks' tasks run after the
 * handles' earlier tasks, and the handles' later tasks, pph_data_acquire()
 * and pph_data_unregister() wait for the blocks, gathered home.  Returns 0
 * once submitted, or the error that kept it or a block from being
 * submitted (said then by the caller: the blocks submitted still run);
 * a block that fails later is said and counted (pph_call_failed()) when
 * the call ends.  With no CPU worker, or a handle partitioned by the
 * program, it is pph_call_partitioned().
 */
int pph_call_partitioned_async(const struct pph_codelet *cl, unsigned impl_mask,
			       unsigned nbuffers, const pph_data_handle *handles,
			       const enum pph_access *modes, const int *parts, const void *arg,
			       size_t arg_size);

/**
 * Report on stderr that a component call failed with rc (a -errno; -EDOM:
 * no variant's constraints held), and count it (pph_failed_calls()): an
 * entry wrapper has the interface's C signature and so no way to return it.
 */
void pph_call_failed(const struct pph_codelet *cl, int rc);

/**
 * The container c is an argument of a call that accesses it with mode:
 * after a write its host copy is stale, after a read a host write must wait
 * for the call (the next host access checks).  Returns c's data handle.
 */
pph_data_handle pph_container_use(struct pph_container *c, enum pph_access mode);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
