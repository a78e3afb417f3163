/* The calls generated entry wrappers make (<peppher/wrappers.h>), over StarPU. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../runtime/failures.h"
#include "../runtime/split_args.h"

/*
 * Tell the smart containers among a call's handles that it was submitted
 * (containers.c): a host read that raced with pph_container_use, before
 * the call's task could be waited for, must not leave the host copy
 * marked valid past it.
 */
static inline void containers_called(unsigned n, const pph_data_handle *handles,
				     const enum pph_access *modes)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (handles[i] && handles[i]->container)
			pph__container_called(handles[i]->container, modes[i]);
}

/* A synchronous call (sync), or an asynchronous one: detached, or kept
 * into *keep (not NULL) to be waited for. */
static int call(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		const pph_data_handle *handles, const enum pph_access *modes, const void *arg,
		size_t arg_size, int sync, struct pph_task **keep)
{
	struct pph_task *task;
	unsigned i;
	int rc;
	/* the caller's errno, which the variant starts with; a synchronous
	 * call returns with the variant's, any other with this */
	int caller_errno = errno, ran_errno = caller_errno;
	/* what the caller asked: an asynchronous call run on its thread is
	 * made synchronous, and leaves its errno as one */
	int asked_sync = sync;
	unsigned mine;

	if (!cl || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	/* the whole call, before pph_shutdown stops StarPU, or none */
	if ((rc = sp__enter(cl->name ? cl->name : "?", 0)) != 0)
		return rc;
	task = pph_task_create(cl);
	rc = task ? 0 : -ENOMEM;
	if (task)
		task->errno_value = caller_errno;
	if (rc == 0 && !task->w)
		rc = -EINVAL; /* a malformed codelet */
	/* (inside a variant, a call runs on that thread anyway) */
	mine = rc || keep || starpu_task_get_current() ? 0 : sp__for_caller(cl, impl_mask);
	if (mine) {
		impl_mask = mine;
		sync = 1;
	}
	if (rc == 0 && pph_task_set_impl_mask(task, impl_mask) != 0)
		rc = -ENODEV;
	for (i = 0; rc == 0 && i < nbuffers; i++)
		rc = pph_task_add_buffer(task, handles[i], modes[i]);
	if (rc == 0)
		rc = pph_task_set_arg(task, arg, arg_size);
	/* inside a variant (see data.c), or a variant for the caller's
	 * thread (runtime.h): run on this thread */
	if (rc == 0 && (mine || starpu_task_get_current())) {
		pph_fpenv_get(&task->fpenv);
		rc = mine ? sp__task_run_for_caller(task) : sp__task_run_here(task);
		if (rc == 0 && (asked_sync || !mine)) {
			ran_errno = task->errno_value;
			pph_fpenv_raise(&task->fpenv);
		}
		pph_task_destroy(task);
		if (rc == 0)
			containers_called(nbuffers, handles, modes);
		sp__leave();
		errno = ran_errno;
		return rc;
	}
	if (rc == 0 && !sync && !keep)
		pph_task_set_detached(task, 1);
	if (rc == 0)
		rc = pph_task_submit(task);
	if (rc == 0)
		containers_called(nbuffers, handles, modes);
	if (sync && rc == 0)
		rc = pph_task_wait(task);
	if (rc == 0 && keep)
		*keep = task;
	else if (sync || rc != 0) {
		if (sync && rc == 0) {
			ran_errno = task->errno_value;
			pph_fpenv_raise(&task->fpenv);
		}
		pph_task_destroy(task);
	}
	sp__leave();
	errno = ran_errno;
	return rc;
}

int pph_call_sync(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		  const pph_data_handle *handles, const enum pph_access *modes, const void *arg,
		  size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 1, NULL);
}

int pph_call_async(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		   const pph_data_handle *handles, const enum pph_access *modes, const void *arg,
		   size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 0, NULL);
}

/* The common number of parts of the partitioned buffers, or -EINVAL. */
static int part_count(unsigned nbuffers, const pph_data_handle *handles, const int *parts)
{
	int n = pph__split_parts(nbuffers, parts);
	unsigned i, ranks = 1;

	for (i = 0; i < nbuffers; i++)
		if (parts[i] >= 0 && handles[i] && sp__ranks_sharing(handles[i]) > ranks)
			ranks = sp__ranks_sharing(handles[i]);
	/* one block per worker, of every rank the blocks go to (as many
	 * each), the same count on every rank (the blocks are registered) */
	if (n == 0)
		n = (int)(sp__workers_per_rank() * ranks);
	return n;
}

/*
 * Equal blocks, each a task that StarPU's scheduler places (libpeppher's
 * blocks sized by predicted throughput are not done here: dmda balances
 * equal blocks among the kinds of workers instead).
 */
static int call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			    const pph_data_handle *handles, const enum pph_access *modes,
			    const int *parts, const void *arg, size_t arg_size);

int pph_call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			 const pph_data_handle *handles, const enum pph_access *modes,
			 const int *parts, const void *arg, size_t arg_size)
{
	/* each block starts with the caller's errno, which the call leaves
	 * as it was: the blocks' own cannot be told apart */
	int rc, caller_errno = errno;

	if (!cl || !parts || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	/* its partition, blocks and unpartition before pph_shutdown stops
	 * StarPU, or none */
	if ((rc = sp__enter(cl->name ? cl->name : "?", 0)) != 0)
		return rc;
	rc = call_partitioned(cl, impl_mask, nbuffers, handles, modes, parts, arg, arg_size);
	/* the blocks' calls told none: the containers' handles are the parents */
	if (rc == 0 && nbuffers <= PPH_MAX_BUFFERS && handles && modes)
		containers_called(nbuffers, handles, modes);
	sp__leave();
	errno = caller_errno;
	return rc;
}

/* A split call's arguments checked: its block count, or -errno. */
static int split_count(const struct pph_codelet *cl, unsigned nbuffers,
		       const pph_data_handle *handles, const enum pph_access *modes,
		       const int *parts, const void *arg, size_t arg_size)
{
	int n;

	if (!cl || !parts || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	if ((n = part_count(nbuffers, handles, parts)) < 0)
		return -EINVAL;
	return n;
}

/*
 * An asynchronous split call (one process): StarPU's asynchronous
 * partitioning of each partitioned handle, planned and submitted, the
 * blocks' tasks detached, then the gathers submitted, none waited for;
 * StarPU orders the handles' later tasks after the gathers.  The blocks'
 * wrappers stay until every gather has run.
 */
struct async_split {
	atomic_uint gathers; /* not run yet, + 1 while they are submitted */
	struct pph_data *blocks[PPH_MAX_BUFFERS];
	starpu_data_handle_t *hs[PPH_MAX_BUFFERS];
	unsigned nbuffers;
};

static void async_split_free(struct async_split *s)
{
	unsigned i;

	for (i = 0; i < s->nbuffers; i++) {
		free(s->blocks[i]);
		free(s->hs[i]);
	}
	free(s);
}

static void split_gathered(void *arg)
{
	struct async_split *s = arg;

	if (atomic_fetch_sub(&s->gathers, 1) == 1)
		async_split_free(s);
}

/* Made, each handle split once: 0, or the first error (the blocks
 * submitted still run, and every partition is gathered). */
static int split_async(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		       const pph_data_handle *handles, const enum pph_access *modes,
		       const int *parts, const void *arg, size_t arg_size, unsigned n,
		       const unsigned *first)
{
	pph_data_handle sub[PPH_MAX_BUFFERS];
	struct async_split *s = calloc(1, sizeof(*s));
	unsigned i, k, made = 0, gathers = 0;
	int rc = s ? 0 : -ENOMEM;

	if (s)
		s->nbuffers = nbuffers;
	for (i = 0; rc == 0 && i < nbuffers; i++)
		if (parts[i] >= 0 && first[i] == i) {
			s->blocks[i] = calloc(n, sizeof(*s->blocks[i]));
			s->hs[i] = calloc(n, sizeof(*s->hs[i]));
			rc = s->blocks[i] && s->hs[i] ?
				     sp__data_split_submit(handles[i], n, s->blocks[i], s->hs[i]) :
				     -ENOMEM;
			if (rc == 0)
				made = i + 1;
		}
	for (k = 0; rc == 0 && k < n; k++) {
		for (i = 0; i < nbuffers; i++)
			sub[i] = parts[i] >= 0 ? &s->blocks[first[i]][k] : handles[i];
		rc = call(cl, impl_mask, nbuffers, sub, modes, arg, arg_size, 0, NULL);
	}
	/* every partition submitted is gathered, its blocks' tasks or not */
	for (i = 0; i < made; i++)
		gathers += parts[i] >= 0 && first[i] == i;
	if (!gathers) {
		if (s)
			async_split_free(s);
		return rc;
	}
	/* one more than the gathers, this thread's: a gather may run, and
	 * free s, before sp__data_split_gather has cleaned its plan with
	 * s->hs[i] (test_starpu crashed in starpu_data_partition_clean, 1
	 * run in 8, two threads splitting) */
	atomic_init(&s->gathers, gathers + 1);
	for (i = 0; i < made; i++)
		if (parts[i] >= 0 && first[i] == i)
			sp__data_split_gather(handles[i], n, s->hs[i], split_gathered, s);
	split_gathered(s);
	return rc;
}

int pph_call_partitioned_async(const struct pph_codelet *cl, unsigned impl_mask,
			       unsigned nbuffers, const pph_data_handle *handles,
			       const enum pph_access *modes, const int *parts, const void *arg,
			       size_t arg_size)
{
	unsigned first[PPH_MAX_BUFFERS], i;
	int n, rc, caller_errno = errno; /* the call leaves it as it was */

	if ((n = split_count(cl, nbuffers, handles, modes, parts, arg, arg_size)) < 0)
		return n;
	/* a handle StarPU cannot split so: the synchronous call says why */
	for (i = 0; n > 1 && i < nbuffers; i++)
		if (parts[i] >= 0 && (!handles[i] || !sp__data_split_ok(handles[i], (unsigned)n)))
			n = 1;
	if (!sp__split_async() || n <= 1 || starpu_task_get_current() || sp__inside() ||
	    !pph__split_shared(nbuffers, handles, parts, first))
		return pph_call_partitioned(cl, impl_mask, nbuffers, handles, modes, parts, arg,
					    arg_size);
	/* no other thread's task or host access between its partitions and
	 * their gathers (init.c) */
	sp__split_window(1);
	/* its partitions, blocks and gathers submitted before pph_shutdown
	 * stops StarPU, or none */
	if ((rc = sp__enter(cl->name ? cl->name : "?", 0)) == 0) {
		rc = split_async(cl, impl_mask, nbuffers, handles, modes, parts, arg, arg_size,
				 (unsigned)n, first);
		if (rc == 0)
			containers_called(nbuffers, handles, modes);
		sp__leave();
	}
	sp__split_window(0);
	errno = caller_errno;
	return rc;
}

static int call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			    const pph_data_handle *handles, const enum pph_access *modes,
			    const int *parts, const void *arg, size_t arg_size)
{
	pph_data_handle *blocks[PPH_MAX_BUFFERS] = { NULL };
	pph_data_handle sub[PPH_MAX_BUFFERS];
	unsigned first[PPH_MAX_BUFFERS];
	struct pph_task **tasks;
	int n, rc = 0, k, submitted = 0;
	unsigned i, done = 0;

	if ((n = split_count(cl, nbuffers, handles, modes, parts, arg, arg_size)) < 0)
		return n;
	/* more blocks than elements (partition="8" over 3 rows): a block
	 * each, the call whole where there is one */
	for (i = 0; i < nbuffers; i++)
		if (parts[i] >= 0 && handles[i] && (size_t)n > sp__split_length(handles[i]))
			n = sp__split_length(handles[i]) ? (int)sp__split_length(handles[i]) : 1;
	/* inside a variant: one call, at once; and a call whose variants run
	 * on its caller's thread, whole */
	if (n <= 1 || starpu_task_get_current() || sp__for_caller(cl, impl_mask) ||
	    !pph__split_shared(nbuffers, handles, parts, first))
		return pph_call_sync(cl, impl_mask, nbuffers, handles, modes, arg, arg_size);
	if (!(tasks = calloc((size_t)n, sizeof(*tasks))))
		return -ENOMEM;
	for (i = 0; rc == 0 && i < nbuffers; i++, done = i)
		if (parts[i] >= 0 && first[i] == i) {
			blocks[i] = calloc((size_t)n, sizeof(*blocks[i]));
			rc = blocks[i] ? pph_data_partition(handles[i], (unsigned)n, blocks[i]) : -ENOMEM;
			if (rc != 0) {
				free(blocks[i]);
				blocks[i] = NULL;
			}
		}
	for (k = 0; rc == 0 && k < n; k++) {
		for (i = 0; i < nbuffers; i++)
			sub[i] = parts[i] >= 0 ? blocks[first[i]][k] : handles[i];
		rc = call(cl, impl_mask, nbuffers, sub, modes, arg, arg_size, 0, &tasks[k]);
		if (rc == 0)
			submitted = k + 1;
	}
	for (i = 0; i < done; i++) /* waits for the sub-tasks */
		if (blocks[i]) {
			pph_data_unpartition(handles[i], (unsigned)n, blocks[i]);
			free(blocks[i]);
		}
	/* a block no variant could run leaves the call short: its error */
	for (k = 0; k < submitted; k++) {
		int block_rc = pph_task_wait(tasks[k]);

		if (rc == 0)
			rc = block_rc;
		pph_task_destroy(tasks[k]);
	}
	free(tasks);
	return rc;
}

void pph_call_failed(const struct pph_codelet *cl, int rc)
{
	const char *name = cl && cl->name ? cl->name : "?";

	sp__count_failed_call();
	if (!pph__failure_said())
		return;
	if (rc == -EDOM)
		fprintf(stderr, "peppher: %s: no variant's constraints hold for this call\n", name);
	else if (rc == -ENODEV && !starpu_is_initialized())
		sp__not_running(name);
	else if (rc == -ENODEV && sp__stopping())
		; /* said once a shutdown (sp__enter) */
	else if (rc == -ENODEV)
		fprintf(stderr, "peppher: %s: call failed: no worker can run any variant the call allows\n",
			name);
	else if (rc != -ECANCELED) /* else the variant said why (pph_variant_error) */
		fprintf(stderr, "peppher: %s: call failed: %s\n", name, pph__failure_reason(rc));
}
