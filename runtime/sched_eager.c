/*
 * eager: one central FIFO queue; an idle worker takes the oldest task it
 * can run.
 *
 * Pushes never take the lock: tasks go onto an atomic stack (push only, so
 * no ABA), and a worker moves the whole stack, reversed, to the end of the
 * FIFO under the lock.  Only sleeping workers are signalled.
 */
#include "internal.h"

static struct {
	struct pph_task *_Atomic incoming; /* newest first */
	atomic_uint sleepers;		   /* workers in cond_wait */
	pthread_mutex_t lock;		   /* the FIFO, stopping, cond */
	pthread_cond_t cond;
	struct pph_fifo fifo;
	int stopping;
} q;

static int eager_init(void)
{
	atomic_store(&q.incoming, NULL);
	atomic_store(&q.sleepers, 0);
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.cond, NULL);
	q.fifo.head = q.fifo.tail = NULL;
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
	struct pph_task *old = atomic_load(&q.incoming);

	do
		task->next = old;
	while (!atomic_compare_exchange_weak(&q.incoming, &old, task));
	/* seq_cst push, then read sleepers: see eager_pop */
	if (atomic_load(&q.sleepers)) {
		pthread_mutex_lock(&q.lock);
		pthread_cond_signal(&q.cond);
		pthread_mutex_unlock(&q.lock);
	}
}

/* Move the incoming stack to the FIFO, oldest first.  Lock held. */
static void drain_incoming(void)
{
	struct pph_task *t = atomic_exchange(&q.incoming, NULL), *rev = NULL, *next;

	for (; t; t = next) {
		next = t->next;
		t->next = rev;
		rev = t;
	}
	for (t = rev; t; t = next) {
		next = t->next;
		pph__fifo_push(&q.fifo, t);
	}
}

/* The first task this worker can run, if any.  Lock held. */
static struct pph_task *take(const struct pph_worker *w)
{
	drain_incoming();
	return pph__fifo_take(&q.fifo, w->arch);
}

static struct pph_task *eager_pop(struct pph_worker *w)
{
	struct pph_task *t;

	pthread_mutex_lock(&q.lock);
	while (!(t = take(w)) && !q.stopping) {
		pthread_mutex_unlock(&q.lock);
		/* a short spin catches a task about to be pushed, without the
		 * cost of sleeping and being woken */
		pph__spin_until_nonnull((void *_Atomic *)&q.incoming);
		pthread_mutex_lock(&q.lock);
		if ((t = take(w)) || q.stopping)
			break;
		/* announce the sleep, then look again: a push either is seen
		 * here or sees the sleeper and signals under the lock */
		atomic_fetch_add(&q.sleepers, 1);
		if (!atomic_load(&q.incoming))
			pthread_cond_wait(&q.cond, &q.lock);
		atomic_fetch_sub(&q.sleepers, 1);
	}
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
