/*
 * ws (work stealing): one deque per worker.  A task made ready by a worker
 * goes to that worker's deque (its data is likely warm there); tasks from
 * the application go round robin.  A worker takes its newest task first and,
 * when its deque is empty, steals the oldest task of another worker.
 */
#include <time.h>

#include "internal.h"

struct deque {
	pthread_mutex_t lock;
	struct pph_task *head, *tail; /* steal at head, own work at tail */
};

static struct {
	struct deque dq[PPH_MAX_WORKERS];
	pthread_mutex_t idle_lock;
	pthread_cond_t idle_cond;
	unsigned long ready; /* tasks in all deques, under idle_lock */
	unsigned next;	     /* round robin for application pushes */
	int stopping;
} s;

static int ws_init(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pthread_mutex_init(&s.dq[i].lock, NULL);
		s.dq[i].head = s.dq[i].tail = NULL;
	}
	pthread_mutex_init(&s.idle_lock, NULL);
	pthread_cond_init(&s.idle_cond, NULL);
	s.ready = 0;
	s.next = 0;
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

static void ws_push(struct pph_task *t)
{
	struct pph_worker *self = pph__current_worker;
	unsigned w;
	struct deque *q;

	unsigned tries;

	pthread_mutex_lock(&s.idle_lock);
	if (self && pph__choose_impl(t, self->arch) >= 0) {
		w = self->id;
	} else {
		/* round robin over the workers that can run the task */
		for (tries = 0, w = s.next++ % pph__rt.nworkers;
		     tries < pph__rt.nworkers &&
		     pph__choose_impl(t, pph__rt.workers[w].arch) < 0;
		     tries++)
			w = (w + 1) % pph__rt.nworkers;
	}
	s.ready++;
	pthread_mutex_unlock(&s.idle_lock);
	q = &s.dq[w];
	pthread_mutex_lock(&q->lock);
	t->next = NULL;
	if (q->tail)
		q->tail->next = t;
	else
		q->head = t;
	q->tail = t;
	pthread_mutex_unlock(&q->lock);
	pthread_mutex_lock(&s.idle_lock);
	pthread_cond_signal(&s.idle_cond);
	pthread_mutex_unlock(&s.idle_lock);
}

/* Unlink a task of q that worker w can run: the newest if q is w's own. */
static struct pph_task *take(struct deque *q, const struct pph_worker *w,
			     int own)
{
	struct pph_task *t, *prev = NULL, *found = NULL, *found_prev = NULL;

	pthread_mutex_lock(&q->lock);
	for (t = q->head; t; prev = t, t = t->next)
		if (pph__choose_impl(t, w->arch) >= 0) {
			found = t;
			found_prev = prev;
			if (!own)
				break;
		}
	if (found) {
		if (found_prev)
			found_prev->next = found->next;
		else
			q->head = found->next;
		if (q->tail == found)
			q->tail = found_prev;
	}
	pthread_mutex_unlock(&q->lock);
	return found;
}

static struct pph_task *ws_pop(struct pph_worker *w)
{
	struct pph_task *t;
	unsigned i, n = pph__rt.nworkers;

	for (;;) {
		t = take(&s.dq[w->id], w, 1);
		for (i = 1; !t && i < n; i++)
			t = take(&s.dq[(w->id + i) % n], w, 0);
		pthread_mutex_lock(&s.idle_lock);
		if (t) {
			s.ready--;
			pthread_mutex_unlock(&s.idle_lock);
			return t;
		}
		if (s.stopping) {
			pthread_mutex_unlock(&s.idle_lock);
			return NULL;
		}
		/* sleep while nothing is ready (a push in between is seen);
		 * ready tasks only other kinds of worker can run: nap briefly */
		if (!s.ready) {
			pthread_cond_wait(&s.idle_cond, &s.idle_lock);
		} else {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 200000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s.idle_cond, &s.idle_lock, &ts);
		}
		pthread_mutex_unlock(&s.idle_lock);
	}
}

static void ws_wake_all(void)
{
	pthread_mutex_lock(&s.idle_lock);
	s.stopping = 1;
	pthread_cond_broadcast(&s.idle_cond);
	pthread_mutex_unlock(&s.idle_lock);
}

const struct pph_sched_policy pph__sched_ws = {
	"ws", "work stealing between per-worker deques",
	ws_init, ws_deinit, ws_push, ws_pop, ws_wake_all,
};
