/* Tasks: made, waited for, finished (pph__task_finish) and recycled; submit.c submits them. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "perfmodel.h"

/*
 * Finished tasks are recycled rather than freed: a task is usually created
 * by the application thread and released by a worker, and malloc's arenas
 * make that round trip costly.  Any thread pushes onto an atomic stack; the
 * creating thread takes the whole stack at once into its own cache, so the
 * stack is never popped concurrently (no ABA).
 */
static struct pph_task *_Atomic recycled;
static PPH_TLS struct pph_task_cache {
	struct pph_task *head;
	unsigned n;	/* tasks this thread put in its cache */
	int registered; /* known to its struct pph_thread (threads.c) */
} cache;

/* A thread keeps at most this many tasks it released itself (a task run at
 * submission is made and released by the same thread); beyond, they go to
 * the shared stack. */
#define PPH_OWN_CACHE_MAX 256

/* A thread that ends hands its cache back to the shared stack, which
 * pph_shutdown frees (or the next thread to make tasks takes): its cache
 * is known to its struct pph_thread (threads.c), whose key's destructor
 * calls pph__task_cache_thread_exit. */
/* the priority of the tasks this thread makes (pph_call_priority) */
static PPH_TLS int call_priority;
/* the work of the calls this thread makes (pph_call_work); 0: their data */
static PPH_TLS double call_work;

static void push_recycled(struct pph_task *first, struct pph_task *last)
{
	struct pph_task *old = atomic_load(&recycled);

	do
		last->next = old;
	while (!atomic_compare_exchange_weak(&recycled, &old, first));
}

void pph__task_cache_thread_exit(void)
{
	struct pph_task *last = cache.head;

	cache.registered = 0;
	if (!last)
		return;
	while (last->next)
		last = last->next;
	push_recycled(cache.head, last);
	cache.head = NULL;
	cache.n = 0;
}

/* The library is unloaded: th's thread, which may live on, never uses its
 * cache again (it lies in that thread's TLS, as long as the thread lives). */
void pph__task_cache_free_of(struct pph_thread *th)
{
	struct pph_task_cache *c = th->task_cache;
	struct pph_task *t, *next;

	if (!c)
		return;
	for (t = c->head; t; t = next) {
		next = t->next;
		free(t);
	}
	*c = (struct pph_task_cache){ NULL, 0, 0 };
}

/* Once per thread: hand the cache back when the thread ends.  Apart, so
 * that recycling a task saves no registers.  0 if it cannot (no memory):
 * the thread keeps no cache. */
static __attribute__((noinline)) int cache_register_thread(void)
{
	struct pph_thread *th = pph__thread_get();

	if (!th)
		return 0;
	th->task_cache = &cache;
	return cache.registered = 1;
}

/* Called when this thread's cache may become non-empty: may it? */
static inline int cache_register(void)
{
	return cache.registered || cache_register_thread();
}

/* This thread's cache is empty: take the shared stack, or a new task.
 * Apart, so that the common path saves no registers. */
static __attribute__((noinline)) struct pph_task *task_alloc_refill(void)
{
	struct pph_task *t = cache.head = atomic_exchange(&recycled, NULL);

	cache.n = 0;
	if (!t)
		return calloc(1, sizeof(*t));
	cache.head = t->next;
	if (cache.head && !cache_register()) {
		struct pph_task *last = cache.head;

		while (last->next)
			last = last->next;
		push_recycled(cache.head, last); /* for a thread that can keep them */
		cache.head = NULL;
	}
	return t;
}

static inline struct pph_task *task_alloc(void)
{
	struct pph_task *t = cache.head;

	if (!t)
		return task_alloc_refill();
	cache.head = t->next;
	if (cache.n)
		cache.n--;
	return t;
}

static void task_recycle(struct pph_task *t)
{
	if (!pph__current_worker && cache.n < PPH_OWN_CACHE_MAX && cache_register()) {
		t->next = cache.head;
		cache.head = t;
		cache.n++;
		return;
	}
	push_recycled(t, t);
}

void pph__task_cache_free(void)
{
	struct pph_task *t = atomic_exchange(&recycled, NULL), *next;

	for (; t; t = next) {
		next = t->next;
		free(t);
	}
	cache.n = 0;
	for (t = cache.head, cache.head = NULL; t; t = next) {
		next = t->next;
		free(t);
	}
}

struct pph_task *pph_task_create(const struct pph_codelet *cl)
{
	struct pph_task *t;

	if (!cl)
		return NULL;
	t = task_alloc();
	if (!t)
		return NULL;
	/* what its owner sets and submission reads; the rest of the fields
	 * before handles only once it is shared (pph__task_share): a task run
	 * in place at its submission never is */
	t->cl = cl;
	t->impl_mask = PPH_ALL_IMPLS;
	t->priority = call_priority;
	t->work = call_work;
	t->sched_impl = -1; /* read by pph__task_runnable at submission */
	t->seq = 0;
	t->nbuffers = 0;
	t->detached = 0;
	t->by_call = 0;
	t->by_caller = 0;
	t->fallback_mask = 0;
	t->twin = t->after = NULL;
	t->prelisted = 0;
	atomic_store_explicit(&t->state, PPH_TASK_MADE, memory_order_relaxed);
	t->shared = 0;
	t->arg = NULL;
	t->arg_size = 0;
	t->callback = NULL;
	t->callback_data = NULL;
	t->impl_ran = -1;
	t->worker_ran = -1;
	t->errno_value = 0;
	t->fpenv.raised = 0;
	return t;
}

void pph__task_share(struct pph_task *t)
{
	if (t->shared)
		return;
	t->shared = 1;
	t->next = NULL;
	t->sched_team = 0;
	t->sched_pushed_us = 0;
	t->sched_pred = 0;
	t->sched_refresh = 0;
	t->sched_why.reason = NULL;
	atomic_init(&t->sleep_wait, 0);
	t->handed_idle = 0;
	t->queued_archs = 0;
	atomic_init(&t->refs, 1);
	atomic_init(&t->ndeps, 1);
	/* a default mutex needs no pthread_mutex_init call */
	t->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	t->error = 0;
	t->successors = NULL;
	/* shared on its submitter's thread, whose environment it runs in */
	pph_fpenv_get(&t->fpenv);
}

static int submitted(const struct pph_task *task)
{
	return atomic_load_explicit(&task->state, memory_order_relaxed) != PPH_TASK_MADE;
}

int pph_task_add_buffer(struct pph_task *task, pph_data_handle handle,
			enum pph_access mode)
{
	if (!task || !handle ||
	    (mode != PPH_R && mode != PPH_W && mode != PPH_RW && mode != PPH_REDUX))
		return -EINVAL;
	if (submitted(task))
		return -EBUSY;
	if (task->nbuffers == PPH_MAX_BUFFERS)
		return -E2BIG;
	if (mode == PPH_REDUX) /* submissions look for it from now on (redux.c) */
		atomic_store_explicit(&pph__redux_used, 1, memory_order_relaxed);
	task->handles[task->nbuffers] = handle;
	task->modes[task->nbuffers++] = mode;
	return 0;
}

static void free_arg(struct pph_task *task)
{
	if (task->arg && task->arg != (void *)task->arg_inline)
		free(task->arg);
	task->arg = NULL;
	task->arg_size = 0;
}

int pph_task_set_arg(struct pph_task *task, const void *arg, size_t size)
{
	void *copy = NULL;

	if (!task || (size && !arg))
		return -EINVAL;
	if (submitted(task))
		return -EBUSY;
	if (size > sizeof(task->arg_inline)) {
		copy = malloc(size);
		if (!copy)
			return -ENOMEM;
	} else if (size) {
		copy = task->arg_inline;
	}
	if (size)
		memcpy(copy, arg, size);
	if (copy != task->arg)
		free_arg(task);
	task->arg = copy;
	task->arg_size = size;
	return 0;
}

int pph_task_force_impl(struct pph_task *task, int index)
{
	if (!task || index >= (int)task->cl->nimpls || index >= 32)
		return -EINVAL;
	task->impl_mask = index < 0 ? PPH_ALL_IMPLS : 1u << index;
	return 0;
}

int pph_task_set_impl_mask(struct pph_task *task, unsigned mask)
{
	unsigned i;

	for (i = 0; task && i < task->cl->nimpls; i++)
		if (i >= 32 || (mask >> i & 1u)) {
			task->impl_mask = mask;
			return 0;
		}
	return -EINVAL;
}

double pph_call_work(double work)
{
	double old = call_work;

	call_work = work > 0 && isfinite(work) ? work : 0;
	return old;
}

int pph_call_priority(int priority)
{
	int old = call_priority;

	call_priority = priority;
	return old;
}

void pph_task_set_priority(struct pph_task *task, int priority)
{
	if (task)
		task->priority = priority;
}

void pph_task_set_callback(struct pph_task *task, void (*fn)(void *), void *data)
{
	if (!task)
		return;
	task->callback = fn;
	task->callback_data = data;
}

void pph_task_set_detached(struct pph_task *task, int detached)
{
	if (task)
		task->detached = detached;
}

int pph__task_runnable(const struct pph_task *task)
{
	unsigned a;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if (pph__rt.arch_workers[a] && pph__choose_impl(task, (enum pph_arch)a) >= 0)
			return 1;
	return 0;
}

/* Submitting while the runtime is not running: say why, once until the
 * next pph_init (every call returns -ENODEV), so that a program calling a
 * component in a loop gets one line. */
__attribute__((noinline)) int pph__not_running(const char *what)
{
	static atomic_uint said; /* the generation it was said in, + 1 */
	unsigned gen = atomic_load(&pph__rt.generation) + 1;

	if (atomic_exchange(&said, gen) != gen) {
		if (pph__forked_child)
			fprintf(stderr, "peppher: %s: refused in a forked child: the runtime runs in the parent process, not in this one (fork before pph_init() or after pph_shutdown(), or exec a program)\n",
				what);
		else if (pph__init_error())
			fprintf(stderr, "peppher: %s: the runtime did not start (%s)\n", what,
				pph__init_error());
		else
			fprintf(stderr, "peppher: %s: the runtime is not running: call PEPPHER_INITIALIZE() (pph_init()) first\n",
				what);
	}
	return -ENODEV;
}

/*
 * Waiting without a lock on the finishing side: a waiter announces itself in
 * rt.waiters before it checks its condition under rt.lock, and a finisher
 * publishes its result before it reads rt.waiters (both sequentially
 * consistent), so either the waiter sees the result or the finisher sees
 * the waiter and broadcasts under the lock.  No waiter, no syscall.
 */
/*
 * A waiter yields instead of sleeping, for up to PPH_YIELD_WAIT_US, unless
 * what it waits for runs on a fork-join team or is predicted to take
 * longer: it goes on without a futex wake-up, 30-60 us each on a virtual
 * machine.  The evaluation's nw, 127 synchronous calls of 25 us, took
 * 3.5-4.5 ms instead of 4-11.  The ODE solver waits once a step for a
 * result at the end of a chain of 14 calls, not yet queued when it starts
 * to wait, so that no prediction tells when it ends; where waits yielded
 * only for a queued task predicted under 50 us, its steps of 100-150 us
 * each paid a wake-up: at its smallest size its dynamic program took 7.5 ms
 * instead of 8.4 and its CPU-only one 7.0 instead of 7.9 (medians of 40
 * alternated runs), and 9-10 % less at the next size.  A yielding thread
 * costs a busy one on its core nothing here (it runs again only when the
 * kernel would switch anyway: 46 yields in 66 ms).  Not for a team's task:
 * a thread yielding on a core makes the kernel start the team's OpenMP
 * threads on another (two teams of SGEMM at 256 ran on one core when idle
 * workers yielded 50 us: 10 ms or 18, run to run).  Not for a longer task:
 * its waiter would keep a core turning for nothing.
 */
struct waiting {
	int (*done)(const void *);
	const struct pph_task *task;
};

/* Does the awaited task take a team, or longer than the yields last?  Its
 * scheduler says so as it queues it (only dmda predicts: under eager and
 * ws a waiter yields its whole budget). */
static int long_or_team(const struct pph_task *t)
{
	return atomic_load_explicit(&t->sleep_wait, memory_order_relaxed);
}

/* Stop yielding: done, or better slept for. */
static int done_or_long(const void *arg)
{
	const struct waiting *w = arg;

	return w->done(w->task) || long_or_team(w->task);
}

static void wait_until(int (*done)(const void *), const struct pph_task *task,
		       atomic_uint *waiters, pthread_cond_t *cond)
{
	struct pph_core_hold core;
	struct waiting w = { done, task };

	if (pph__current_worker) { /* inside a variant: nested */
		pph__worker_help_until(pph__current_worker, done, task);
		return;
	}
	pph__list_held_task(); /* called by a task run in place: let its handles go */
	pph__wakes_release(); /* the workers it would wait for may sleep */
	if (done(task))
		return;
	if (pph__team_thread()) { /* inside a team's region: nested */
		pph__team_help_until(done, task);
		return;
	}
	/* called by a task run in a worker's place: let its core go */
	pph__core_take(NULL, 0, &core);
	if (!(task ? pph__spin_until_us(done_or_long, &w, PPH_YIELD_WAIT_US) && done(task) :
		     pph__spin_until_us(done, task, 0))) {
		atomic_fetch_add_explicit(&pph__rt.waits_slept, 1, memory_order_relaxed);
		pthread_mutex_lock(&pph__rt.lock);
		atomic_fetch_add(waiters, 1);
		while (!done(task))
			pthread_cond_wait(cond, &pph__rt.lock);
		atomic_fetch_sub(waiters, 1);
		pthread_mutex_unlock(&pph__rt.lock);
	}
	pph__core_give(&core);
}

static int task_finished(const void *task)
{
	return atomic_load(&((const struct pph_task *)task)->state) == PPH_TASK_FINISHED;
}

static int all_finished(const void *unused)
{
	(void)unused;
	return atomic_load(&pph__rt.pending) == 0;
}

void pph__task_wait_finished(struct pph_task *task)
{
	wait_until(task_finished, task, &pph__rt.waiters, &pph__rt.done_cond);
}

static int for_caller_or_finished(const void *task)
{
	enum pph_task_state s = atomic_load(&((const struct pph_task *)task)->state);

	return s == PPH_TASK_FOR_CALLER || s == PPH_TASK_FINISHED;
}

int pph__task_wait_for_caller(struct pph_task *task)
{
	wait_until(for_caller_or_finished, task, &pph__rt.waiters, &pph__rt.done_cond);
	return atomic_load(&task->state) == PPH_TASK_FOR_CALLER;
}

void pph__task_hand_to_caller(struct pph_task *task)
{
	/* seq_cst, as pph__task_finish: the caller counts itself a waiter
	 * before it looks again */
	atomic_store(&task->state, PPH_TASK_FOR_CALLER);
	if (atomic_load(&pph__rt.waiters)) {
		pthread_mutex_lock(&pph__rt.lock);
		pthread_cond_broadcast(&pph__rt.done_cond);
		pthread_mutex_unlock(&pph__rt.lock);
	}
}

/* Does task wait for the variant running here (it uses data that variant's
 * task holds)?  Then it cannot end before that variant returns. */
static int waits_for_running_task(const struct pph_task *task)
{
	const struct pph_task *r = pph__running.task;
	unsigned i, j;

	for (i = 0; r && i < task->nbuffers; i++)
		for (j = 0; j < r->nbuffers; j++)
			if (r->handles[j] == task->handles[i] &&
			    (r->modes[j] != PPH_R || task->modes[i] != PPH_R))
				return 1;
	return 0;
}

int pph__waits_for_running(const struct pph_data *d, enum pph_access mode, const char *what)
{
	const struct pph_task *r = pph__running.task;
	unsigned i;

	for (i = 0; r && i < r->nbuffers; i++)
		if (r->handles[i] == d && (r->modes[i] != PPH_R || mode != PPH_R)) {
			fprintf(stderr, "peppher: %s: would wait for the task whose variant %s runs here, which holds handle %p: refused (-EDEADLK)\n",
				what, r->cl->impls[pph__running.impl].name, (const void *)d);
			return -EDEADLK;
		}
	return 0;
}

int pph_task_wait(struct pph_task *task)
{
	unsigned i;
	int rc;

	if (!task || task->detached || !submitted(task))
		return -EINVAL;
	if ((rc = pph__refused_in_forked_child("pph_task_wait")) != 0)
		return rc; /* the parent's task: it never finishes here */
	for (i = 0; pph__running.task && i < task->nbuffers; i++)
		if ((rc = pph__waits_for_running(task->handles[i], task->modes[i],
						 "pph_task_wait")) != 0)
			return rc;
	pph__task_wait_finished(task);
	/* only a shared task can fail (one run in place never is) */
	return task->shared ? task->error : 0;
}

void pph_task_wait_all(void)
{
	if (pph__current_worker || pph__team_thread()) {
		/* it counts among the tasks waited for */
		fprintf(stderr, "peppher: pph_task_wait_all() called inside a task would wait for that task: refused\n");
		return;
	}
	wait_until(all_finished, NULL, &pph__rt.all_waiters, &pph__rt.all_done_cond);
}

void pph__task_finish(struct pph_task *task)
{
	enum pph_task_state ran = atomic_load_explicit(&task->state, memory_order_relaxed);
	int listed = ran != PPH_TASK_RUNNING_IN_PLACE, counted = ran == PPH_TASK_RUNNING;
	int detached = task->detached, waitable, last = 0;

	/* nobody waits for a detached task's error: counted instead
	 * (pph_failed_calls) */
	if (detached && task->error)
		atomic_fetch_add(&pph__rt.failed_calls, 1);
	if (!listed && detached) {
		pph__task_recycle(task); /* nobody else ever saw it */
		return;
	}
	if (listed)
		pph__deps_leave(task);
	/* the owner of a task not detached waits for it, and host accesses
	 * wait for the tasks they found listed on a handle */
	waitable = !detached || (listed && task->nbuffers);
	if (waitable)
		atomic_store(&task->state, PPH_TASK_FINISHED);
	if (counted)
		last = atomic_fetch_sub(&pph__rt.pending, 1) == 1;
	if ((waitable || counted) && atomic_load(&pph__rt.waiters)) {
		pthread_mutex_lock(&pph__rt.lock);
		pthread_cond_broadcast(&pph__rt.done_cond);
		pthread_mutex_unlock(&pph__rt.lock);
	}
	if (last && atomic_load(&pph__rt.all_waiters)) {
		pthread_mutex_lock(&pph__rt.lock);
		pthread_cond_broadcast(&pph__rt.all_done_cond);
		pthread_mutex_unlock(&pph__rt.lock);
	}
	if (detached)
		pph__task_release(task);
}

int pph_task_impl_ran(const struct pph_task *task)
{
	return task ? task->impl_ran : -1;
}

int pph_task_worker_ran(const struct pph_task *task)
{
	return task ? task->worker_ran : -1;
}

void pph__task_recycle(struct pph_task *task)
{
	if (task->arg && task->arg != (void *)task->arg_inline)
		free(task->arg); /* the fields are set again when it is made */
	/* until made again: a second pph_task_destroy is told */
	atomic_store_explicit(&task->state, PPH_TASK_FREE, memory_order_relaxed);
	task_recycle(task);
}

void pph__task_release(struct pph_task *task)
{
	if (task->shared) {
		/* the last reference: nobody can take another (handles take
		 * theirs while the task is listed), so no atomic
		 * read-modify-write */
		if (atomic_load_explicit(&task->refs, memory_order_acquire) != 1 &&
		    atomic_fetch_sub(&task->refs, 1) != 1)
			return;
		if (task->nbuffers) /* only a task listed on handles takes its lock */
			pthread_mutex_destroy(&task->lock);
	}
	pph__task_recycle(task);
}

void pph_task_destroy(struct pph_task *task)
{
	if (!task)
		return;
	/* destroyed twice, its memory would be handed out twice (a task
	 * reused since cannot be told from a new one) */
	if (atomic_load_explicit(&task->state, memory_order_relaxed) == PPH_TASK_FREE) {
		fprintf(stderr, "peppher: pph_task_destroy: task %p was destroyed already\n",
			(void *)task);
		return;
	}
	if (task->detached && submitted(task)) {
		fprintf(stderr, "peppher: pph_task_destroy: task %p is detached: it is freed when it ends\n",
			(void *)task);
		return;
	}
	/* inside a variant, a task waiting for it cannot end before it
	 * returns (pph_task_wait said -EDEADLK; waiting here hung): it
	 * frees itself when it ends, as a detached task */
	if (submitted(task) && waits_for_running_task(task)) {
		task->detached = 1;
		return;
	}
	if (submitted(task))
		pph__task_wait_finished(task);
	pph__task_release(task);
}
