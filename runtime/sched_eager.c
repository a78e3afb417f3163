/*
 * eager: one central queue; an idle worker takes the oldest task of the
 * highest priority that it can run.
 */
#include "internal.h"

static struct pph_readyq q;

static int eager_init(void)
{
	pph__readyq_init(&q);
	return 0;
}

static void eager_deinit(void)
{
	pph__readyq_deinit(&q);
}

static void eager_push(struct pph_task *task)
{
	pph__readyq_push(&q, task);
}

static struct pph_task *eager_pop(struct pph_worker *w)
{
	return pph__readyq_pop(&q, w->arch);
}

static struct pph_task *eager_try_pop(struct pph_worker *w)
{
	return pph__readyq_try_pop(&q, w->arch);
}

static void eager_wake_all(void)
{
	pph__readyq_stop(&q);
}

/* A variant was disabled: a queued task no worker can run any more
 * (held to that variant) would stay in the queue for good; it fails. */
static void eager_variant_disabled(void)
{
	struct pph_task *t = pph__readyq_take_stranded(&q, pph__worker_archs()), *next;

	for (; t; t = next) {
		next = t->next;
		pph__task_place_again(t);
	}
}

const struct pph_sched_policy pph__sched_eager = {
	"eager", "central FIFO queue shared by all workers",
	eager_init, eager_deinit, eager_push, eager_pop, eager_try_pop, eager_wake_all, NULL, NULL,
	eager_variant_disabled,
};
