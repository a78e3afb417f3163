/*
 * eager: one central FIFO queue; an idle worker takes the oldest task it
 * can run.
 */
#include "internal.h"

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pph_task *head, *tail;
	int stopping;
} q;

static int eager_init(void)
{
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.cond, NULL);
	q.head = q.tail = NULL;
	q.stopping = 0;
	return 0;
}

static void eager_deinit(void)
{
	pthread_cond_destroy(&q.cond);
	pthread_mutex_destroy(&q.lock);
}

static void eager_push(struct pph_task *task)
{
	pthread_mutex_lock(&q.lock);
	task->next = NULL;
	if (q.tail)
		q.tail->next = task;
	else
		q.head = task;
	q.tail = task;
	pthread_cond_signal(&q.cond);
	pthread_mutex_unlock(&q.lock);
}

/* Unlink the first task this worker can run, if any. */
static struct pph_task *take(const struct pph_worker *w)
{
	struct pph_task *t, *prev = NULL;

	for (t = q.head; t; prev = t, t = t->next) {
		if (pph__choose_impl(t, w->arch) < 0)
			continue;
		if (prev)
			prev->next = t->next;
		else
			q.head = t->next;
		if (q.tail == t)
			q.tail = prev;
		return t;
	}
	return NULL;
}

static struct pph_task *eager_pop(struct pph_worker *w)
{
	struct pph_task *t;

	pthread_mutex_lock(&q.lock);
	while (!(t = take(w)) && !q.stopping)
		pthread_cond_wait(&q.cond, &q.lock);
	pthread_mutex_unlock(&q.lock);
	return t;
}

static void eager_wake_all(void)
{
	pthread_mutex_lock(&q.lock);
	q.stopping = 1;
	pthread_cond_broadcast(&q.cond);
	pthread_mutex_unlock(&q.lock);
}

const struct pph_sched_policy pph__sched_eager = {
	"eager", "central FIFO queue shared by all workers",
	eager_init, eager_deinit, eager_push, eager_pop, eager_wake_all,
};
