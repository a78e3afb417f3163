/*
 * Undeferred tasks: an application thread that submits a task which is
 * ready at once, while more than PPH_UNDEFERRED_BACKLOG tasks per worker
 * are pending, runs it itself, as libgomp does beyond 64 queued tasks per
 * thread.  A backlog that long keeps every worker busy anyway, and a task
 * run where it was made costs no hand-over to another core.  Only a task
 * with exactly one variant that can run, a CPU one, so that no scheduling
 * choice is taken from the scheduler; never while fork-join teams may own
 * the cores, nor while tracing (the trace has one track per worker).
 * PEPPHER_UNDEFERRED=0 turns it off.
 */
#include "internal.h"
#include "perfmodel.h"

#define PPH_UNDEFERRED_BACKLOG 64

static __thread int variant_failed;

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

int pph__run_undeferred(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	unsigned long backlog = (unsigned long)PPH_UNDEFERRED_BACKLOG * pph__rt.nworkers;
	double t0, us;
	int impl;

	if (!pph__rt.undeferred || pph__current_worker ||
	    atomic_load_explicit(&pph__rt.pending, memory_order_relaxed) <= backlog ||
	    atomic_load_explicit(&pph__rt.has_parallel, memory_order_relaxed) ||
	    pph__trace_enabled() || (impl = only_cpu_variant(t)) < 0)
		return 0;
	if (pph__task_acquire_data(t, 0, buffers) != 0)
		return 0; /* queued: a worker reports the failure */
	t0 = pph__now_us();
	t->cl->impls[impl].fn(buffers, t->arg);
	us = pph__now_us() - t0;
	pph__task_release_data(t, 0);
	if (variant_failed) {
		variant_failed = 0;
		pph__task_variant_failed(t, impl);
		return 1;
	}
	t->impl_ran = impl;
	t->worker_ran = PPH_WORKER_APPLICATION;
	pph__perfmodel_record(t->cl, (unsigned)impl, PPH_ARCH_CPU, 1, t->footprint, t->size, us);
	atomic_fetch_add_explicit(&pph__rt.undeferred_tasks, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&pph__rt.undeferred_ns, (unsigned long long)(us * 1e3),
				  memory_order_relaxed);
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finished(t);
	return 1;
}
