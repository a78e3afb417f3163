/*
 * Undeferred tasks: an application thread that submits a task which is
 * ready at once runs it itself, in two cases:
 *  - more than PPH_UNDEFERRED_BACKLOG tasks per worker are pending, as
 *    libgomp does beyond 64 queued tasks per thread: a backlog that long
 *    keeps every worker busy anyway;
 *  - the task is tiny: its calibrated model predicts less than
 *    PEPPHER_TINY_US (default 0.2 us), less than handing it to a worker
 *    costs the submitting thread (cache lines of the task, the queue and
 *    the counters change cores: 0.2-0.3 us here, against 0.06 us run in
 *    place).  Otherwise a worker that keeps up with such tasks makes every
 *    one of them pay the hand-over, and only a backlog (which it prevents)
 *    would stop that.
 * Only a task with exactly one variant that can run, a CPU one, so that no
 * scheduling choice is taken from the scheduler; never while fork-join
 * teams may own the cores, nor while tracing (the trace has one track per
 * worker).  PEPPHER_UNDEFERRED=0 turns it off.
 */
#include <errno.h>

#include "internal.h"
#include "perfmodel.h"

#define PPH_UNDEFERRED_BACKLOG 64
/*
 * Only one tiny task run at submission in PPH_UNDEFERRED_SAMPLE is timed:
 * reading the clock twice costs more than an empty task (22 ns a read
 * here).  The busy time in the statistics is estimated from that sample.
 */
#define PPH_UNDEFERRED_SAMPLE 256

/* a thread asks again after this many tasks of one kind */
#define PPH_VERDICT_USES 1024

static PPH_TLS int variant_failed;
static PPH_TLS unsigned sample;
/* tasks pph__run_undeferred is running on this thread (nested: a variant
 * may submit) */
static PPH_TLS unsigned undeferred_depth;

/*
 * What this thread found of the last kind of task it submitted (codelet,
 * variants allowed, data shapes): whether it can run, the one variant
 * that can run it when that is a CPU one, whether that is tiny, and so
 * whether it runs in place.  The loops over variants and workers and the
 * model's lock were a third of submitting an empty task; a task of the
 * same kind reuses the answers.  What they depend on changes only with
 * the generation: pph_init, a variant disabled, the first OPENMP variant.
 */
static PPH_TLS struct {
	const struct pph_codelet *cl;
	unsigned impl_mask;
	uint32_t footprint;
	unsigned generation; /* of the runtime they were found in */
	unsigned uses;	     /* left before finding them again */
	int rc;	      /* of submitting it: 0, -EINVAL (bad codelet), -ENODEV */
	int only_cpu; /* only_cpu_variant(), or -2: not asked yet */
	int tiny;     /* 1, 0, or -1: not calibrated or not asked yet */
	int in_place; /* the variant it runs in place with; -1: none; -2: not known yet */
} verdict;

void pph__undeferred_variant_failed(void)
{
	variant_failed = 1;
}

/* The one variant that can run t, if it is a CPU one; else -1. */
static int only_cpu_variant(const struct pph_task *t)
{
	const struct pph_codelet *cl = t->cl;
	int found = -1;
	unsigned i, a;

	for (i = 0; i < cl->nimpls; i++) {
		if (!pph__impl_allowed(t, i))
			continue;
		for (a = 0; a < PPH_ARCH_COUNT; a++)
			if (pph__rt.arch_workers[a] &&
			    pph__arch_can_run((enum pph_arch)a, cl->impls[i].arch))
				break;
		if (a == PPH_ARCH_COUNT)
			continue; /* no worker for it */
		if (found >= 0 || cl->impls[i].arch != PPH_ARCH_CPU)
			return -1;
		found = (int)i;
	}
	return found;
}

/* Fork-join teams may own the cores from the first OPENMP variant on:
 * nothing runs at submission any more (see may_run_here). */
static void note_parallel(const struct pph_codelet *cl)
{
	unsigned i;

	for (i = 0; i < cl->nimpls; i++)
		if (cl->impls[i].arch == PPH_ARCH_OPENMP &&
		    !atomic_exchange(&pph__rt.has_parallel, 1))
			atomic_fetch_add(&pph__rt.generation, 1);
}

/* What pph__submit found of t, just before on this thread. */
static int only_cpu(const struct pph_task *t)
{
	if (verdict.only_cpu == -2)
		verdict.only_cpu = only_cpu_variant(t);
	return verdict.only_cpu;
}

static int tiny(const struct pph_task *t, int impl)
{
	double us;

	if (!pph__rt.tiny_us)
		return 0;
	if (verdict.tiny < 0) {
		us = pph__perfmodel_predict(t->cl, (unsigned)impl, PPH_ARCH_CPU, 1, t->footprint,
					    t->size);
		if (us < 0)
			return 0; /* not calibrated: ask again next time */
		verdict.tiny = us < pph__rt.tiny_us;
	}
	return verdict.tiny;
}

/* The task run in place by this thread, while its variant runs: it holds
 * its handles' locks until it is listed on them. */
struct in_place {
	struct pph_task *task;
	int listed;
};
static PPH_TLS struct in_place in_place;

void pph__in_place_list(void)
{
	if (in_place.task && !in_place.listed) {
		pph__deps_list_held(in_place.task);
		in_place.listed = 1;
	}
}

/* Whether an application thread may run tasks at submission at all. */
static int may_run_here(void)
{
	return pph__rt.undeferred && !pph__current_worker &&
	       !atomic_load_explicit(&pph__rt.has_parallel, memory_order_relaxed) &&
	       !pph__trace_enabled();
}

/* The variant t runs in place with (tiny), or -1. */
static int in_place_variant(const struct pph_task *t)
{
	int impl;

	if (verdict.in_place != -2)
		return verdict.in_place;
	if (!may_run_here() || (impl = only_cpu(t)) < 0)
		return verdict.in_place = -1;
	if (!tiny(t, impl))
		return verdict.tiny < 0 ? -1 /* not calibrated: ask again */
					: (verdict.in_place = -1);
	return verdict.in_place = impl;
}

/*
 * Run variant impl of t on this thread with its data acquired; returns 0,
 * or -1 if the variant said it could not run (pph_variant_failed).  A tiny
 * task is timed 1 in PPH_UNDEFERRED_SAMPLE, and its busy time estimated.
 * Host replicas are not pinned: nothing to release afterwards.
 */
static inline __attribute__((always_inline)) int run_here(struct pph_task *t, int impl,
							  void *buffers[], int small)
{
	int timed = !small || sample++ % PPH_UNDEFERRED_SAMPLE == 0;
	double t0 = 0, us = 0;

	if (timed)
		t0 = pph__now_us();
	t->cl->impls[impl].fn(buffers, t->arg);
	if (timed)
		us = pph__now_us() - t0;
	if (variant_failed) {
		variant_failed = 0;
		return -1;
	}
	t->impl_ran = impl;
	t->worker_ran = PPH_WORKER_APPLICATION;
	atomic_fetch_add_explicit(&pph__rt.undeferred_tasks, 1, memory_order_relaxed);
	if (timed) {
		pph__perfmodel_record(t->cl, (unsigned)impl, PPH_ARCH_CPU, 1, t->footprint,
				      t->size, us);
		atomic_fetch_add_explicit(&pph__rt.undeferred_ns,
					  (unsigned long long)(us * 1e3 *
							       (small ? PPH_UNDEFERRED_SAMPLE : 1)),
					  memory_order_relaxed);
	}
	return 0;
}

/* The variant of t (listed on its handles, not counted) failed: its data
 * back as it was; count and number it as deps.c does for a queued task,
 * then retry or fail it. */
static void failed_here(struct pph_task *t, int impl, const struct pph_replica_states *saved)
{
	pph__task_restore_data(t, saved);
	atomic_fetch_add(&pph__rt.pending, 1);
	t->seq = atomic_fetch_add(&pph__rt.seq, 1);
	pph__task_variant_failed(t, impl);
}

/* The in-place run of a tiny task (see pph__submit). */
static inline __attribute__((always_inline)) int run_in_place(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	struct in_place outer;
	int impl, rc, listed;

	if ((impl = in_place_variant(t)) < 0)
		return 0;
	if (t->nbuffers) {
		if (!pph__deps_hold(t))
			return 0;
		if (pph__task_acquire_data(t, 0, buffers, &saved) != 0) {
			pph__deps_unhold(t); /* queued: a worker reports the failure */
			return 0;
		}
	}
	outer = in_place; /* a task run in place submitted t */
	in_place.task = t;
	in_place.listed = 0;
	rc = run_here(t, impl, buffers, 1);
	if (rc != 0)
		pph__in_place_list();
	else if (!in_place.listed && t->nbuffers)
		pph__deps_unhold(t);
	listed = in_place.listed;
	in_place = outer;
	if (rc != 0) {
		failed_here(t, impl, &saved);
		return 1;
	}
	if (t->callback)
		t->callback(t->callback_data);
	if (listed)
		pph__task_finished_at_once(t);
	else if (t->detached) /* nobody else ever saw it */
		pph__task_recycle(t);
	else
		pph__task_finished_in_place(t);
	return 1;
}

int pph__submit(struct pph_task *t)
{
	unsigned generation = atomic_load_explicit(&pph__rt.generation, memory_order_relaxed);

	if (!verdict.uses || verdict.cl != t->cl || verdict.impl_mask != t->impl_mask ||
	    verdict.footprint != t->footprint || verdict.generation != generation) {
		verdict.cl = t->cl;
		verdict.impl_mask = t->impl_mask;
		verdict.footprint = t->footprint;
		verdict.generation = generation;
		verdict.uses = PPH_VERDICT_USES;
		verdict.rc = pph__codelet_check(t->cl);
		if (!verdict.rc && !pph__task_runnable(t))
			verdict.rc = -ENODEV;
		verdict.only_cpu = -2;
		verdict.tiny = -1;
		verdict.in_place = -2;
		if (!verdict.rc && !atomic_load(&pph__rt.has_parallel))
			note_parallel(t->cl);
	}
	verdict.uses--;
	if (verdict.rc) {
		t->submitted = 0;
		return verdict.rc;
	}
	pph__in_place_list(); /* submitted by a task run in place: list that first */
	if (!run_in_place(t)) /* a detached task run there is gone */
		pph__deps_submit(t); /* counts it in rt.pending unless it runs at once */
	return 0;
}

int pph__run_undeferred(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	unsigned long backlog = (unsigned long)PPH_UNDEFERRED_BACKLOG * pph__rt.nworkers;
	int impl, small = 0, rc;

	if (!may_run_here() || (impl = only_cpu(t)) < 0 ||
	    (atomic_load_explicit(&pph__rt.pending, memory_order_relaxed) <= backlog &&
	     !(small = tiny(t, impl))))
		return 0;
	if (pph__task_acquire_data(t, 0, buffers, &saved) != 0)
		return 0; /* queued: a worker reports the failure */
	undeferred_depth++;
	rc = run_here(t, impl, buffers, small);
	undeferred_depth--;
	if (rc != 0) {
		failed_here(t, impl, &saved);
		return 1;
	}
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finished_at_once(t);
	return 1;
}

int pph__running_task_here(void)
{
	return pph__current_worker || in_place.task || undeferred_depth;
}
