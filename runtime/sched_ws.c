/*
 * ws (work stealing): one queue per worker.  A task made ready by a worker
 * goes to that worker's queue (its data is likely warm there); tasks from
 * the application go round robin.  A worker takes the oldest task of its own
 * queue and, when that is empty, steals the oldest task of another worker.
 */
#include "internal.h"

struct deque {
	_Alignas(PPH_CACHE_LINE) pthread_mutex_t lock; /* no line shared between workers */
	struct pph_fifo fifo;
};

static struct {
	struct deque dq[PPH_MAX_WORKERS];
	atomic_long ready;	/* tasks in the queues (briefly -1: taken before counted) */
	atomic_ulong pushes;	/* tasks ever pushed: tells a sleeper whether any came */
	atomic_uint sleepers;	/* workers in cond_wait */
	atomic_uint next;	/* round robin for application pushes */
	pthread_mutex_t idle_lock;
	pthread_cond_t idle_cond;
	int stopping;		/* under idle_lock */
} s;

static int ws_init(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pthread_mutex_init(&s.dq[i].lock, NULL);
		s.dq[i].fifo.head = s.dq[i].fifo.tail = NULL;
	}
	pthread_mutex_init(&s.idle_lock, NULL);
	pthread_cond_init(&s.idle_cond, NULL);
	atomic_store(&s.ready, 0);
	atomic_store(&s.pushes, 0);
	atomic_store(&s.sleepers, 0);
	atomic_store(&s.next, 0);
	s.stopping = 0;
	return 0;
}

static void ws_deinit(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++)
		pthread_mutex_destroy(&s.dq[i].lock);
	pthread_cond_destroy(&s.idle_cond);
	pthread_mutex_destroy(&s.idle_lock);
}

/* The deque a task goes to: the pushing worker's own if it can run it,
 * else the next worker, round robin, that can. */
static unsigned target(struct pph_task *t)
{
	struct pph_worker *self = pph__current_worker;
	unsigned w, tries;

	if (self && pph__choose_impl(t, self->arch) >= 0)
		return self->id;
	w = atomic_fetch_add(&s.next, 1) % pph__rt.nworkers;
	for (tries = 0; tries < pph__rt.nworkers &&
			pph__choose_impl(t, pph__rt.workers[w].arch) < 0; tries++)
		w = (w + 1) % pph__rt.nworkers;
	return w;
}

static void ws_push(struct pph_task *t)
{
	struct deque *q = &s.dq[target(t)];

	pthread_mutex_lock(&q->lock);
	pph__fifo_push(&q->fifo, t);
	pthread_mutex_unlock(&q->lock);
	/* count, then read sleepers (all seq_cst): see ws_pop */
	atomic_fetch_add(&s.ready, 1);
	atomic_fetch_add(&s.pushes, 1);
	if (atomic_load(&s.sleepers)) {
		/* wake all: the task may suit only some kinds of worker */
		pthread_mutex_lock(&s.idle_lock);
		pthread_cond_broadcast(&s.idle_cond);
		pthread_mutex_unlock(&s.idle_lock);
	}
}

/* Unlink the first task of q that worker w can run. */
static struct pph_task *take(struct deque *q, const struct pph_worker *w)
{
	struct pph_task *t;

	/* skip empty queues without their lock */
	if (!atomic_load_explicit(&q->fifo.head, memory_order_relaxed))
		return NULL;
	pthread_mutex_lock(&q->lock);
	t = pph__fifo_take(&q->fifo, w->arch);
	pthread_mutex_unlock(&q->lock);
	return t;
}

static struct pph_task *find_work(const struct pph_worker *w)
{
	unsigned i, n = pph__rt.nworkers;
	struct pph_task *t = take(&s.dq[w->id], w);

	for (i = 1; !t && i < n; i++)
		t = take(&s.dq[(w->id + i) % n], w);
	if (t)
		atomic_fetch_sub(&s.ready, 1);
	return t;
}

static int any_ready(const void *unused)
{
	(void)unused;
	return atomic_load_explicit(&s.ready, memory_order_relaxed) > 0;
}

static struct pph_task *ws_pop(struct pph_worker *w)
{
	struct pph_task *t;
	unsigned long pushed;
	long seen;

	for (;;) {
		if ((t = find_work(w)))
			return t;
		pph__spin_until(any_ready, NULL);
		if ((t = find_work(w)))
			return t;
		pthread_mutex_lock(&s.idle_lock);
		if (s.stopping) {
			pthread_mutex_unlock(&s.idle_lock);
			return NULL;
		}
		/* announce the sleep, then look again: a push either is seen
		 * here or sees the sleeper and broadcasts under the lock */
		atomic_fetch_add(&s.sleepers, 1);
		seen = atomic_load(&s.ready);
		pushed = atomic_load(&s.pushes);
		if (seen <= 0)
			pthread_cond_wait(&s.idle_cond, &s.idle_lock);
		atomic_fetch_sub(&s.sleepers, 1);
		pthread_mutex_unlock(&s.idle_lock);
		if (seen > 0 && !(t = find_work(w))) {
			/* ready tasks only other kinds of worker can run, or
			 * taken by others: sleep unless one was pushed since.
			 * Not while the count of ready tasks is what it was:
			 * another worker took the one counted, and a push
			 * that found no sleeper made the count the same
			 * again; this worker slept beside a task, its
			 * neighbour running a long one */
			pthread_mutex_lock(&s.idle_lock);
			atomic_fetch_add(&s.sleepers, 1);
			if (!s.stopping && atomic_load(&s.pushes) == pushed)
				pthread_cond_wait(&s.idle_cond, &s.idle_lock);
			atomic_fetch_sub(&s.sleepers, 1);
			pthread_mutex_unlock(&s.idle_lock);
		}
		if (t)
			return t;
	}
}

static struct pph_task *ws_try_pop(struct pph_worker *w)
{
	return find_work(w);
}

static void ws_wake_all(void)
{
	pthread_mutex_lock(&s.idle_lock);
	s.stopping = 1;
	pthread_cond_broadcast(&s.idle_cond);
	pthread_mutex_unlock(&s.idle_lock);
}

/* A variant was disabled: a queued task no worker can run any more
 * (held to that variant) would stay in its deque for good; it fails.
 * Any worker takes the others from any deque. */
static void ws_variant_disabled(void)
{
	unsigned archs = pph__worker_archs(), i;
	struct pph_task *t, *next;

	for (i = 0; i < pph__rt.nworkers; i++) {
		pthread_mutex_lock(&s.dq[i].lock);
		t = pph__fifo_take_stranded(&s.dq[i].fifo, archs);
		pthread_mutex_unlock(&s.dq[i].lock);
		for (; t; t = next) {
			next = t->next;
			atomic_fetch_sub(&s.ready, 1);
			pph__task_place_again(t);
		}
	}
}

const struct pph_sched_policy pph__sched_ws = {
	"ws", "work stealing between per-worker deques",
	ws_init, ws_deinit, ws_push, ws_pop, ws_try_pop, ws_wake_all, NULL, NULL,
	ws_variant_disabled,
};
