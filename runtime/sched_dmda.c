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

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pph_fifo fifo;
	double queued_us;   /* predicted work waiting in the queue */
	double running_end; /* expected end of the task running now */
	int stopping;
};

static struct {
	struct queue q[PPH_MAX_WORKERS];
} d;

static int dmda_init(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		d.q[i].stopping = 0;
		pthread_mutex_init(&d.q[i].lock, NULL);
		pthread_cond_init(&d.q[i].cond, NULL);
		d.q[i].fifo.head = d.q[i].fifo.tail = NULL;
		d.q[i].queued_us = d.q[i].running_end = 0;
	}
	return 0;
}

static void dmda_deinit(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pthread_cond_destroy(&d.q[i].cond);
		pthread_mutex_destroy(&d.q[i].lock);
	}
}

/* When worker w is expected to be free, in microseconds. */
static double available_at(unsigned w, double now)
{
	struct queue *q = &d.q[w];
	double end;

	pthread_mutex_lock(&q->lock);
	end = fmax(now, q->running_end) + q->queued_us;
	pthread_mutex_unlock(&q->lock);
	return end;
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

			if ((t->forced_impl >= 0 && (int)i != t->forced_impl) ||
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
	struct queue *q;

	/* submit checked that some worker can run the task */
	t->sched_impl = c.impl;
	t->sched_pred = c.pred;
	q = &d.q[c.worker];
	pthread_mutex_lock(&q->lock);
	pph__fifo_push(&q->fifo, t);
	q->queued_us += c.pred;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

static struct pph_task *dmda_pop(struct pph_worker *w)
{
	struct queue *q = &d.q[w->id];
	struct pph_task *t;

	pthread_mutex_lock(&q->lock);
	if (!q->fifo.head && !q->stopping) {
		pthread_mutex_unlock(&q->lock);
		pph__spin_until_nonnull((void *_Atomic *)&q->fifo.head);
		pthread_mutex_lock(&q->lock);
	}
	while (!q->fifo.head && !q->stopping)
		pthread_cond_wait(&q->cond, &q->lock);
	/* every task in this queue was placed here for this worker */
	t = pph__fifo_take(&q->fifo, w->arch);
	if (t) {
		q->queued_us = q->fifo.head ? fmax(0, q->queued_us - t->sched_pred) : 0;
		q->running_end = pph__now_us() + t->sched_pred;
	}
	pthread_mutex_unlock(&q->lock);
	return t;
}

static void dmda_wake_all(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pthread_mutex_lock(&d.q[i].lock);
		d.q[i].stopping = 1;
		pthread_cond_broadcast(&d.q[i].cond);
		pthread_mutex_unlock(&d.q[i].lock);
	}
}

const struct pph_sched_policy pph__sched_dmda = {
	"dmda", "earliest expected completion from performance models (default)",
	dmda_init, dmda_deinit, dmda_push, dmda_pop, dmda_wake_all,
};
