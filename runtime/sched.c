/* Scheduling policies, chosen by name, and variant choice. */
#include <sched.h>
#include <string.h>

#include "internal.h"

/* the first is the default */
static const struct pph_sched_policy *const policies[] = {
	&pph__sched_dmda,
	&pph__sched_eager,
	&pph__sched_ws,
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

const struct pph_sched_policy *pph__sched_find(const char *name)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

/*
 * Spinning: a few hundred pauses, then yields, so that a spinning worker
 * gives its core to the application thread (often one more thread than
 * cores) instead of taking it.
 */
#define SPIN_PAUSES 200
#define SPIN_YIELDS 20

static inline void cpu_relax(unsigned round)
{
	if (round >= SPIN_PAUSES) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void pph__spin_lock(pph_spinlock *l)
{
	unsigned i = 0;

	while (!pph__spin_trylock(l))
		while (atomic_load_explicit(l, memory_order_relaxed))
			cpu_relax(i < SPIN_PAUSES ? i++ : i);
}

int pph__spin_until(int (*done)(const void *), const void *arg)
{
	return pph__spin_until_us(done, arg, 0);
}

int pph__spin_until_us(int (*done)(const void *), const void *arg, double yield_us)
{
	unsigned i;
	double until;

	for (i = 0; i < SPIN_PAUSES + SPIN_YIELDS; i++) {
		if (done(arg))
			return 1;
		cpu_relax(i);
	}
	/* then yields for yield_us more */
	until = pph__now_us() + yield_us;
	while (pph__now_us() < until) {
		if (done(arg))
			return 1;
		sched_yield();
	}
	return done(arg);
}

void pph__fifo_push(struct pph_fifo *f, struct pph_task *t)
{
	struct pph_task *p, *prev = NULL;

	/* common case in O(1): not above the last task's priority */
	if (!f->tail || f->tail->priority >= t->priority) {
		t->next = NULL;
		if (f->tail)
			f->tail->next = t;
		else
			f->head = t;
		f->tail = t;
		return;
	}
	for (p = f->head; p && p->priority >= t->priority; prev = p, p = p->next)
		;
	t->next = p;
	if (prev)
		prev->next = t;
	else
		f->head = t;
}

struct pph_task *pph__fifo_take(struct pph_fifo *f, enum pph_arch arch)
{
	struct pph_task *t, *prev = NULL;

	for (t = f->head; t && pph__choose_impl(t, arch) < 0; prev = t, t = t->next)
		;
	if (!t)
		return NULL;
	if (prev)
		prev->next = t->next;
	else
		f->head = t->next;
	if (f->tail == t)
		f->tail = prev;
	return t;
}

void pph__readyq_init(struct pph_readyq *q)
{
	unsigned a;

	atomic_store(&q->incoming, NULL);
	atomic_store(&q->nudged, 0);
	for (a = 0; a < PPH_ARCH_COUNT; a++) {
		atomic_store(&q->sleepers[a], 0);
		atomic_store(&q->runnable[a], 0);
		atomic_store(&q->spinning[a], 0);
	}
	{
		/* held briefly by workers that pop together: spin a little
		 * before sleeping in the kernel */
		pthread_mutexattr_t a;

		pthread_mutexattr_init(&a);
		pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
		pthread_mutex_init(&q->lock, &a);
		pthread_mutexattr_destroy(&a);
	}
	pthread_cond_init(&q->cond, NULL);
	q->fifo.head = q->fifo.tail = NULL;
	q->stopping = 0;
}

void pph__readyq_deinit(struct pph_readyq *q)
{
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

/*
 * Wakes this thread holds back (pph__wakes_hold): the queues whose
 * sleepers it is to wake at pph__wakes_release.  A woken worker may take
 * the core of the thread that woke it: a split call's thread on the H100
 * machine's 16 cores took 121-125 us a block to submit spmv_ell's blocks,
 * here 10 us the first and 20-220 us the second (2 cores), as the workers
 * its first blocks woke ran them on its core; held, every block is queued
 * before any is woken.  The queues held (up to a worker's each, 2 KiB) are
 * this thread's struct pph_thread's (threads.c).
 */
static PPH_TLS int holding;

static void wake_sleepers(struct pph_readyq *q)
{
	struct pph_thread *th;
	unsigned i;

	if (holding && (th = pph__thread)) {
		for (i = 0; i < th->nheld && th->held[i] != q; i++)
			;
		if (i < th->nheld)
			return; /* held already */
		if (th->nheld < PPH_MAX_WORKERS) {
			th->held[th->nheld++] = q;
			return;
		}
	}
	pthread_mutex_lock(&q->lock);
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Without memory for the list, the wakes are made at once. */
void pph__wakes_hold(void)
{
	if (pph__thread_get())
		holding = 1;
}

int pph__wakes_held(void)
{
	return holding;
}

/* The sleepers read after the pushes: a worker that went to sleep since
 * looked at its queue after announcing its sleep, and found the task. */
void pph__wakes_release(void)
{
	struct pph_thread *th = pph__thread;
	unsigned i, a, sleepers;

	if (!holding)
		return;
	holding = 0;
	for (i = 0; th && i < th->nheld; i++) {
		struct pph_readyq *q = th->held[i];

		for (a = 0, sleepers = 0; a < PPH_ARCH_COUNT; a++)
			sleepers += atomic_load(&q->sleepers[a]);
		if (sleepers)
			wake_sleepers(q);
	}
	if (th)
		th->nheld = 0;
}

void pph__readyq_push(struct pph_readyq *q, struct pph_task *t)
{
	struct pph_task *old = atomic_load(&q->incoming);
	unsigned a, wake = 0, archs = 0;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if (pph__rt.arch_workers[a] && pph__choose_impl(t, (enum pph_arch)a) >= 0) {
			archs |= 1u << a;
			atomic_fetch_add(&q->runnable[a], 1);
		}
	t->queued_archs = archs;
	do
		t->next = old;
	while (!atomic_compare_exchange_weak(&q->incoming, &old, t));
	/*
	 * seq_cst push, then read spinning and sleepers: see pph__readyq_pop.
	 * Waking a sleeper is a system call on this thread and a context
	 * switch; no need while spinning workers outnumber the queued tasks.
	 * Once pushed, t may run, finish and be reused at any time: only
	 * archs is read from here on.
	 */
	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if ((archs >> a & 1u) &&
		    atomic_load(&q->runnable[a]) > atomic_load(&q->spinning[a]))
			wake |= atomic_load(&q->sleepers[a]) != 0;
	if (wake)
		wake_sleepers(q);
}

/* Move the incoming stack into the FIFO, oldest first.  Lock held. */
static void drain_incoming(struct pph_readyq *q)
{
	struct pph_task *t = atomic_exchange(&q->incoming, NULL), *rev = NULL, *next;

	for (; t; t = next) {
		next = t->next;
		t->next = rev;
		rev = t;
	}
	for (t = rev; t; t = next) {
		next = t->next;
		pph__fifo_push(&q->fifo, t);
	}
}

/* The first task a worker of arch can run, if some may be.  Lock held. */
static struct pph_task *take(struct pph_readyq *q, enum pph_arch arch)
{
	struct pph_task *t;
	unsigned a;

	drain_incoming(q);
	if (!atomic_load(&q->runnable[arch]) || !(t = pph__fifo_take(&q->fifo, arch)))
		return NULL;
	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if (t->queued_archs >> a & 1u)
			atomic_fetch_sub(&q->runnable[a], 1);
	return t;
}

/* Can a worker of one of archs (a mask) run t? */
static int runs_on(const struct pph_task *t, unsigned archs)
{
	unsigned a;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if ((archs >> a & 1u) && pph__choose_impl(t, (enum pph_arch)a) >= 0)
			return 1;
	return 0;
}

struct pph_task *pph__fifo_take_stranded(struct pph_fifo *f, unsigned archs)
{
	struct pph_task *t, *prev = NULL, *next, *head = NULL, **tail = &head;

	for (t = f->head; t; t = next) {
		next = t->next;
		if (runs_on(t, archs)) {
			prev = t;
			continue;
		}
		if (prev)
			prev->next = next;
		else
			f->head = next;
		if (f->tail == t)
			f->tail = prev;
		t->next = NULL;
		*tail = t;
		tail = &t->next;
	}
	return head;
}

struct pph_task *pph__readyq_take_stranded(struct pph_readyq *q, unsigned archs)
{
	struct pph_task *head, *t;
	unsigned a;

	pthread_mutex_lock(&q->lock);
	drain_incoming(q);
	head = pph__fifo_take_stranded(&q->fifo, archs);
	for (t = head; t; t = t->next)
		for (a = 0; a < PPH_ARCH_COUNT; a++)
			if (t->queued_archs >> a & 1u)
				atomic_fetch_sub(&q->runnable[a], 1);
	pthread_mutex_unlock(&q->lock);
	return head;
}

unsigned pph__worker_archs(void)
{
	unsigned a, archs = 0;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if (pph__rt.arch_workers[a])
			archs |= 1u << a;
	return archs;
}

struct wait_for {
	struct pph_readyq *q;
	enum pph_arch arch;
};

/* Something new is queued, and some queued task suits the worker; or
 * the worker is to look elsewhere. */
static int work_for(const void *arg)
{
	const struct wait_for *w = arg;

	return (atomic_load_explicit(&w->q->incoming, memory_order_relaxed) &&
		atomic_load_explicit(&w->q->runnable[w->arch], memory_order_relaxed) > 0) ||
	       atomic_load_explicit(&w->q->nudged, memory_order_relaxed);
}

/* Was the worker nudged?  Then it is no longer.  Lock held. */
static int nudged(struct pph_readyq *q)
{
	return atomic_load_explicit(&q->nudged, memory_order_relaxed) &&
	       atomic_exchange(&q->nudged, 0);
}

struct pph_task *pph__readyq_pop(struct pph_readyq *q, enum pph_arch arch)
{
	struct wait_for w = { q, arch };
	struct pph_task *t;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		if ((t = take(q, arch)) || q->stopping || nudged(q))
			break;
		pthread_mutex_unlock(&q->lock);
		/* a short spin catches a task about to be pushed, without the
		 * cost of sleeping and being woken */
		atomic_fetch_add(&q->spinning[arch], 1);
		pph__spin_until(work_for, &w);
		/* no longer a spinner before taking: a push that counted this
		 * worker as one would not wake a sleeper, and this worker may
		 * take another task and look no further (two pushed as it
		 * took the first: the second stayed queued, the other worker
		 * asleep, for good) */
		atomic_fetch_sub(&q->spinning[arch], 1);
		pthread_mutex_lock(&q->lock);
		if ((t = take(q, arch)) || q->stopping || nudged(q))
			break;
		/* announce the sleep, then look again: a push either is seen
		 * here, or sees this worker sleeping (and signals under the
		 * lock) */
		atomic_fetch_add(&q->sleepers[arch], 1);
		if (!atomic_load(&q->incoming) && !atomic_load(&q->nudged))
			pthread_cond_wait(&q->cond, &q->lock);
		atomic_fetch_sub(&q->sleepers[arch], 1);
	}
	pthread_mutex_unlock(&q->lock);
	return t;
}

struct pph_task *pph__readyq_try_pop(struct pph_readyq *q, enum pph_arch arch)
{
	struct pph_task *t;

	if (!atomic_load_explicit(&q->incoming, memory_order_relaxed) &&
	    !atomic_load_explicit(&q->fifo.head, memory_order_relaxed))
		return NULL;
	pthread_mutex_lock(&q->lock);
	t = take(q, arch);
	pthread_mutex_unlock(&q->lock);
	return t;
}

void pph__readyq_nudge(struct pph_readyq *q)
{
	unsigned a, sleepers = 0;

	/* seq_cst store, then read sleepers: as a push */
	atomic_store(&q->nudged, 1);
	for (a = 0; a < PPH_ARCH_COUNT; a++)
		sleepers += atomic_load(&q->sleepers[a]);
	if (sleepers)
		wake_sleepers(q);
}

int pph__readyq_stopped(struct pph_readyq *q)
{
	int stopping;

	pthread_mutex_lock(&q->lock);
	stopping = q->stopping;
	pthread_mutex_unlock(&q->lock);
	return stopping;
}

void pph__readyq_stop(struct pph_readyq *q)
{
	pthread_mutex_lock(&q->lock);
	q->stopping = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

const struct pph_sched_policy *pph__sched_default(void)
{
	return policies[0];
}

void pph__sched_list(FILE *fp)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		fprintf(fp, "  %-8s %s\n", policies[i]->name, policies[i]->description);
}

int pph__choose_impl(const struct pph_task *task, enum pph_arch arch)
{
	const struct pph_codelet *cl = task->cl;
	unsigned i, n = 0, k;

	if (task->sched_impl >= 0 && pph__impl_allowed(task, (unsigned)task->sched_impl))
		return pph__arch_can_run(arch, cl->impls[task->sched_impl].arch) ?
			       task->sched_impl : -1;
	for (i = 0; i < cl->nimpls; i++)
		n += pph__impl_allowed(task, i) && pph__arch_can_run(arch, cl->impls[i].arch);
	if (!n)
		return -1;
	/* No performance model yet: spread calls round robin over the
	 * runnable variants, so that every variant gets run and measured. */
	k = (unsigned)(task->seq % n);
	for (i = 0; i < cl->nimpls; i++)
		if (pph__impl_allowed(task, i) && pph__arch_can_run(arch, cl->impls[i].arch) &&
		    k-- == 0)
			return (int)i;
	return -1;
}

/* ---- variants disabled at run time ---- */

#define MAX_DISABLED 64

static struct {
	const struct pph_codelet *cl;
	unsigned mask;
} disabled[MAX_DISABLED];
static unsigned ndisabled;
static pthread_mutex_t disabled_lock = PTHREAD_MUTEX_INITIALIZER;
atomic_int pph__any_disabled;

unsigned pph__impl_disabled_mask(const struct pph_codelet *cl)
{
	unsigned i, mask = 0;

	pthread_mutex_lock(&disabled_lock);
	for (i = 0; i < ndisabled; i++)
		if (disabled[i].cl == cl)
			mask = disabled[i].mask;
	pthread_mutex_unlock(&disabled_lock);
	return mask;
}

void pph__impl_disable(const struct pph_codelet *cl, unsigned impl)
{
	unsigned i;

	if (impl >= 32)
		return;
	pthread_mutex_lock(&disabled_lock);
	for (i = 0; i < ndisabled && disabled[i].cl != cl; i++)
		;
	if (i == ndisabled && ndisabled < MAX_DISABLED)
		disabled[ndisabled++].cl = cl;
	if (i < ndisabled)
		disabled[i].mask |= 1u << impl;
	pthread_mutex_unlock(&disabled_lock);
	atomic_store(&pph__any_disabled, 1);
	atomic_fetch_add(&pph__rt.generation, 1);
}

void pph__impl_enable_all(void)
{
	pthread_mutex_lock(&disabled_lock);
	ndisabled = 0;
	pthread_mutex_unlock(&disabled_lock);
	atomic_store(&pph__any_disabled, 0);
	atomic_fetch_add(&pph__rt.generation, 1);
}
