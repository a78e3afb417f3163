/*
 * dmda (deque model data aware): each task goes to the worker, and runs the
 * variant, with the earliest expected completion: when the worker's queue
 * drains, plus the variant's predicted run time there, plus the predicted
 * time to bring the task's data to the worker's memory.  Variants that are
 * not calibrated at the task's data size are tried first, on the least
 * loaded worker that can run them, until their history predicts them.
 */
#include <math.h>

#include "internal.h"
#include "perfmodel.h"

/* Per worker: its ready queue and what it is expected to be busy with.
 * The estimates are read without a lock: a stale value only makes one
 * placement slightly worse. */
struct queue {
	struct pph_readyq ready;
	_Atomic double queued_us;   /* predicted work waiting in the queue */
	_Atomic double running_end; /* expected end of the task running now */
};

static struct queue q[PPH_MAX_WORKERS];

static int dmda_init(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pph__readyq_init(&q[i].ready);
		atomic_store(&q[i].queued_us, 0);
		atomic_store(&q[i].running_end, 0);
	}
	return 0;
}

static void dmda_deinit(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++)
		pph__readyq_deinit(&q[i].ready);
}

static void add_queued(struct queue *qu, double us)
{
	double old = atomic_load(&qu->queued_us);

	while (!atomic_compare_exchange_weak(&qu->queued_us, &old, fmax(0, old + us)))
		;
}

/* When worker w is expected to be free, in microseconds. */
static double available_at(unsigned w, double now)
{
	return fmax(now, atomic_load(&q[w].running_end)) + atomic_load(&q[w].queued_us);
}

/* Variants whose predictions are kept per push (more are asked per worker). */
#define PPH_CHOICE_IMPLS 16

struct choice {
	int worker, impl;
	double end, pred;
};

#define NOT_ASKED (-2.0)

/* Try every (worker, variant) pair; an uncalibrated one wins outright.
 * Predictions depend on the architecture, not the worker: ask once each. */
static struct choice choose(const struct pph_task *t)
{
	const struct pph_codelet *cl = t->cl;
	struct choice best = { -1, -1, INFINITY, 0 }, explore = best;
	double now = pph__now_us(), pred[PPH_ARCH_COUNT][PPH_CHOICE_IMPLS];
	unsigned w, i, a;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		for (i = 0; i < PPH_CHOICE_IMPLS; i++)
			pred[a][i] = NOT_ASKED;
	for (w = 0; w < pph__rt.nworkers; w++) {
		const struct pph_worker *wk = &pph__rt.workers[w];
		double avail = available_at(w, now);

		for (i = 0; i < cl->nimpls; i++) {
			double p, end;

			if (!pph__impl_allowed(t, i) ||
			    !pph__arch_can_run(wk->arch, cl->impls[i].arch))
				continue;
			if (i >= PPH_CHOICE_IMPLS)
				p = pph__perfmodel_predict(cl, i, wk->arch, t->footprint, t->size);
			else if ((p = pred[wk->arch][i]) == NOT_ASKED)
				p = pred[wk->arch][i] = pph__perfmodel_predict(
					cl, i, wk->arch, t->footprint, t->size);
			if (p < 0) {
				/* spread simultaneous explorations over variants */
				if (explore.impl < 0 || avail < explore.end ||
				    (avail == explore.end && (t->seq + i) % 2))
					explore = (struct choice){ (int)w, (int)i, avail, 0 };
				continue;
			}
			end = avail + p + pph__transfer_estimate(t, wk->node);
			if (end < best.end)
				best = (struct choice){ (int)w, (int)i, end, p };
		}
	}
	return explore.impl >= 0 ? explore : best;
}

static void dmda_push(struct pph_task *t)
{
	struct choice c = choose(t);

	/* submit checked that some worker can run the task */
	t->sched_impl = c.impl;
	t->sched_pred = c.pred;
	add_queued(&q[c.worker], c.pred);
	/* the data starts moving now, while the worker finishes what it runs */
	pph__task_prefetch(t, pph__rt.workers[c.worker].node);
	pph__readyq_push(&q[c.worker].ready, t);
}

static struct pph_task *dmda_pop(struct pph_worker *w)
{
	struct pph_task *t = pph__readyq_pop(&q[w->id].ready, w->arch);

	if (t) {
		add_queued(&q[w->id], -t->sched_pred);
		atomic_store(&q[w->id].running_end, pph__now_us() + t->sched_pred);
	}
	return t;
}

static void dmda_wake_all(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++)
		pph__readyq_stop(&q[i].ready);
}

const struct pph_sched_policy pph__sched_dmda = {
	"dmda", "earliest expected completion from performance models (default)",
	dmda_init, dmda_deinit, dmda_push, dmda_pop, dmda_wake_all,
};
