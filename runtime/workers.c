/* CPU workers: one thread per core, bound with hwloc. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwloc.h>

#include "internal.h"
#include "perfmodel.h"

static hwloc_topology_t topology;

PPH_TLS struct pph_worker *pph__current_worker;
PPH_TLS struct pph_running pph__running;
PPH_TLS double pph__one_time_us;

/* Bind a started worker's thread to a core; the creating thread does it, so
 * that w->core is written before any other thread reads it. */
static void bind_to_core(struct pph_worker *w)
{
	int ncores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
	hwloc_obj_t core;

	if (ncores <= 0)
		return;
	/* more workers than cores: wrap around */
	core = hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE,
				     w->id % (unsigned)ncores);
	/* binding is an optimization: a failure (containers) is not fatal */
	if (core && hwloc_set_thread_cpubind(topology, w->thread, core->cpuset, 0) == 0)
		w->core = (int)core->logical_index;
}

/* Bind w's thread to the cores of workers [base, base + n): the OpenMP
 * threads its fork-join variant starts inherit that, and share the team's
 * cores instead of all running on w's. */
static void bind_to_team(const struct pph_worker *w, unsigned base, unsigned n)
{
	hwloc_bitmap_t set;
	unsigned i;

	if (w->core < 0 || !(set = hwloc_bitmap_alloc()))
		return;
	for (i = base; i < base + n; i++) {
		int core = pph__rt.workers[i].core;
		hwloc_obj_t obj = core < 0 ? NULL :
			hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, (unsigned)core);

		if (obj)
			hwloc_bitmap_or(set, set, obj->cpuset);
	}
	if (!hwloc_bitmap_iszero(set))
		(void)hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
}

/*
 * The OpenMP threads of a team, each pinned to the core of one member of
 * the team.  Bound to the team's cores as a whole, the two threads of a
 * team of 2 often shared the master's core, one waiting for the other,
 * while the other core stayed idle (Linux places a thread woken by a
 * futex beside its waker when it finds no idle core at that instant): in
 * `make evaluation` on a 2-core virtual machine, cfd's flux took 3.1 to
 * 5.3 ms a call on a team of 2, a process at a time, where one thread
 * took 4.9; pinned, 2.6 to 3.7.  libpeppher does not link libgomp (its
 * constructor would then read OMP_WAIT_POLICY before openmp_env.c sets
 * it), so it finds libgomp's entry points in the program, which links
 * them when it has OPENMP variants: GOMP_parallel (the ABI of GCC's
 * `#pragma omp parallel`, which LLVM's libomp exports too) runs a region
 * of the team's size whose threads pin themselves.  libgomp gives the
 * next regions of that size the same threads in the same order, so a
 * worker pins again only when its team size changes.
 */
typedef void (*gomp_parallel_fn)(void (*fn)(void *), void *data, unsigned nthreads,
				 unsigned flags);
typedef int (*omp_query_fn)(void);

static struct {
	gomp_parallel_fn parallel;
	omp_query_fn thread_num, level;
} gomp;
static pthread_once_t gomp_once = PTHREAD_ONCE_INIT;

static void find_gomp(void)
{
	gomp.parallel = (gomp_parallel_fn)dlsym(RTLD_DEFAULT, "GOMP_parallel");
	gomp.thread_num = (omp_query_fn)dlsym(RTLD_DEFAULT, "omp_get_thread_num");
	gomp.level = (omp_query_fn)dlsym(RTLD_DEFAULT, "omp_get_level");
}

struct team_pins {
	hwloc_cpuset_t sets[PPH_MAX_WORKERS]; /* per thread number; 0: the master */
	struct pph_worker *members[PPH_MAX_WORKERS]; /* the same */
	unsigned n;
	atomic_uint pinned; /* threads that pinned themselves */
};

/*
 * The team member whose core this OpenMP thread of a team runs on, NULL in
 * other threads.  Such a thread runs only inside its team's regions (its
 * pool is its master worker's), on cores the team holds exclusive: a call
 * it makes must not wait for those members' workers (pph__team_thread).
 */
static PPH_TLS struct pph_worker *team_member;

static void pin_member(void *arg)
{
	struct team_pins *p = arg;
	int i = gomp.thread_num();

	if (i <= 0 || (unsigned)i >= p->n)
		return;
	team_member = p->members[i];
	if (p->sets[i] && hwloc_set_cpubind(topology, p->sets[i], HWLOC_CPUBIND_THREAD) == 0)
		atomic_fetch_add(&p->pinned, 1);
}

/* Pin the OpenMP threads of w's team of threads from base to the other
 * members' cores, in worker order, and mark them as team threads (also
 * where a core is not known, so that they are never waited for); 0 if
 * they are pinned (or were already).  Not from inside a region (a
 * variant that calls a component there): its nested region would have
 * one thread. */
static int pin_team(struct pph_worker *w, unsigned base, unsigned threads)
{
	struct team_pins p = { { NULL }, { NULL }, 0, 0 };
	unsigned i, cores = 0;

	if (w->pinned_team == threads) /* tried at this size: once */
		return w->pins_held ? 0 : -1;
	pthread_once(&gomp_once, find_gomp);
	if (!gomp.parallel || !gomp.thread_num || !gomp.level || gomp.level() > 0)
		return -1;
	w->pinned_team = threads;
	w->pins_held = 0;
	for (i = base; i < base + threads; i++) {
		int core = pph__rt.workers[i].core;
		hwloc_obj_t obj;

		if (i == w->id)
			continue;
		obj = core < 0 || w->core < 0 ? NULL :
			hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, (unsigned)core);
		p.members[++p.n] = &pph__rt.workers[i];
		p.sets[p.n] = obj ? obj->cpuset : NULL;
		cores += obj != NULL;
	}
	p.n++;
	gomp.parallel(pin_member, &p, threads, 0);
	/* a core not known, or fewer threads than asked (OMP_THREAD_LIMIT):
	 * not pinned */
	if (cores != threads - 1 || atomic_load(&p.pinned) != threads - 1)
		return -1;
	w->pins_held = 1;
	return 0;
}

int pph__team_thread(void)
{
	return team_member != NULL && !pph__current_worker;
}

/*
 * Start, at pph_init, the OpenMP threads of the teams a CPU worker leads
 * (team_leader), pinned, as its first fork-join variant of each size
 * would: a program's first calls then pay neither libgomp's thread
 * creation nor the pinning.  Measured here (2 cores, passive wait), a
 * thread's first region took 150-290 us with 2 threads and 250-630 us
 * with 8 to 16, its next ones 50-150; bfs at 20,000 nodes runs in 1.7 ms
 * on the H100 machine's 16 cores, and its dynamic program ran teams of 2
 * and 8 there.  Each worker leads one team size above 1: 16 workers
 * start 15 + 2 * 7 + 4 * 3 + 8 * 1 = 49 threads, which sleep (passive
 * wait) until used.
 */
static void start_teams(struct pph_worker *w)
{
	unsigned sizes[PPH_MAX_TEAM_SIZES], n = pph__team_sizes(sizes), k;

	for (k = 0; k < n; k++)
		if (sizes[k] > 1 && (w->leads >> k & 1u) && w->core >= 0 &&
		    pin_team(w, pph__team_base(w->id, sizes[k]), sizes[k]) == 0 &&
		    sizes[k] > w->omp_started)
			w->omp_started = sizes[k];
}

int pph__task_still_runnable(struct pph_task *t)
{
	if (pph__task_runnable(t))
		return 1;
	if (!t->fallback_mask || t->fallback_mask == t->impl_mask)
		return 0;
	t->impl_mask = t->fallback_mask;
	t->fallback_mask = 0;
	return pph__task_runnable(t);
}

void pph__task_place_again(struct pph_task *t)
{
	t->sched_impl = -1;
	pph__task_enqueue(t); /* fails it if no variant is left */
}

void pph__task_variant_failed(struct pph_task *t, int impl)
{
	pph__impl_disable(t->cl, (unsigned)impl);
	if (pph__rt.sched->variant_disabled)
		pph__rt.sched->variant_disabled();
	t->sched_impl = -1;
	if (pph__task_still_runnable(t)) {
		fprintf(stderr, "peppher: %s: variant %s disabled; the task runs on another one\n",
			t->cl->name, t->cl->impls[impl].name);
		pph__task_enqueue(t);
		return;
	}
	fprintf(stderr, "peppher: %s: variant %s failed and no other variant can run the task\n",
		t->cl->name, t->cl->impls[impl].name);
	t->error = -EIO;
	pph__task_finish(t);
}

/* The variant said it could not run, or its device work failed, on worker
 * w: the data goes back to what it was before, for another variant. */
static void retry_elsewhere(struct pph_worker *w, struct pph_task *t, int impl,
			    const struct pph_replica_states *saved)
{
	w->variant_failed = 0;
	if (w->node) /* nothing of it may still run when the data moves */
		(void)pph__rt.nodes[w->node].ops->sync(w->node);
	pph__task_restore_data(t, saved);
	pph__task_release_data(t, w->node);
	pph__task_variant_failed(t, impl);
}

/* Did the variant that just ran on w fail: said so, or its device work
 * (launches, memory accesses) reported an error when waited for? */
static int variant_failed(struct pph_worker *w)
{
	return w->variant_failed || (w->node && pph__rt.nodes[w->node].ops->sync(w->node) != 0);
}

void pph_variant_error(const char *why)
{
	struct pph_task *t = (struct pph_task *)pph__running.task;

	if (!t) {
		fprintf(stderr, "peppher: pph_variant_error called outside a variant: %s\n",
			why ? why : "");
		return;
	}
	fprintf(stderr, "peppher: %s: variant %s failed: %s; the call fails, its data as the variant left it\n",
		t->cl->name, t->cl->impls[pph__running.impl].name ? t->cl->impls[pph__running.impl].name : "?",
		why ? why : "no reason given");
	t->error = -ECANCELED;
}

void pph_variant_failed(void)
{
	if (pph__current_worker)
		pph__current_worker->variant_failed = 1;
	else
		pph__here_variant_failed();
}

unsigned pph__team_sizes(unsigned sizes[PPH_MAX_TEAM_SIZES])
{
	unsigned ncpu = pph__rt.arch_workers[PPH_ARCH_CPU], s, n = 0;

	for (s = 1; s < ncpu && n < PPH_MAX_TEAM_SIZES - 1; s *= 2)
		sizes[n++] = s;
	sizes[n++] = ncpu ? ncpu : 1;
	return n;
}

unsigned pph__task_team(const struct pph_task *t)
{
	unsigned ncpu = pph__rt.arch_workers[PPH_ARCH_CPU];

	return t->sched_team && t->sched_team <= ncpu ? t->sched_team : ncpu;
}

/*
 * Take member m's core exclusive for a fork-join variant, unless a team
 * holds it: 0, or -1 (nothing taken).  It may be held shared (tasks
 * running there, which the team waits for) when it is tried, and by a
 * team later: the wait is made in steps, each looking at team_held.
 */
static int take_exclusive(struct pph_worker *m)
{
	struct timespec until;

	if (pthread_rwlock_trywrlock(&m->team_lock) == 0)
		return 0;
	for (;;) {
		if (atomic_load(&m->team_held))
			return -1;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pthread_rwlock_timedwrlock(&m->team_lock, &until) == 0)
			return 0;
	}
}

/*
 * Take the cores a variant runs on (see team_lock): its own worker's for a
 * CPU variant, every team member's for a fork-join one.  Returns the team
 * size, 0 when nothing was taken.  With busy, a core that a team holds
 * (or is about to: a writer waits) is not waited for: -1, nothing taken,
 * *busy the lock to wait for without the task.  A team's OpenMP threads
 * may wait for the very task (a call from inside its region), which would
 * then wait for the team: the task goes back to the scheduler, where a
 * thread of the team, or a worker outside it, takes it.
 */
static int team_enter(struct pph_worker *w, const struct pph_task *t, int impl,
		      pthread_rwlock_t **busy)
{
	unsigned threads, base, i;

	if (w->arch != PPH_ARCH_CPU || !atomic_load(&pph__rt.has_parallel))
		return 0;
	if (t->cl->impls[impl].arch != PPH_ARCH_OPENMP) {
		if (!busy)
			pthread_rwlock_rdlock(&w->team_lock);
		else if (pthread_rwlock_tryrdlock(&w->team_lock) != 0) {
			*busy = &w->team_lock;
			return -1;
		}
		w->team_task = t;
		w->team_impl = impl;
		return 1;
	}
	threads = pph__task_team(t);
	base = pph__team_base(w->id, threads);
	/* in worker order: two teams never wait for each other in a cycle */
	for (i = base; i < base + threads; i++) {
		struct pph_worker *m = &pph__rt.workers[i];

		if (!busy)
			pthread_rwlock_wrlock(&m->team_lock);
		else if (take_exclusive(m) != 0) {
			*busy = &m->team_lock;
			while (i-- > base) {
				atomic_store(&pph__rt.workers[i].team_held, 0);
				pthread_rwlock_unlock(&pph__rt.workers[i].team_lock);
			}
			return -1;
		}
		atomic_store(&m->team_held, 1);
	}
	w->team_task = t;
	w->team_impl = impl;
	w->team_threads = threads;
	w->team_bound = 0;
	if (threads > 1 && pin_team(w, base, threads) != 0) {
		/* no pins: the OpenMP threads it starts inherit the team's cores */
		bind_to_team(w, base, threads);
		w->team_bound = 1;
	}
	return threads;
}

static void team_leave(struct pph_worker *w, const struct pph_task *t, int impl)
{
	unsigned base, i;

	w->team_task = NULL;
	if (t->cl->impls[impl].arch != PPH_ARCH_OPENMP) {
		pthread_rwlock_unlock(&w->team_lock);
		return;
	}
	base = pph__team_base(w->id, w->team_threads);
	if (w->team_bound)
		bind_to_team(w, w->id, 1);
	for (i = base + w->team_threads; i-- > base;) {
		atomic_store(&pph__rt.workers[i].team_held, 0);
		pthread_rwlock_unlock(&pph__rt.workers[i].team_lock);
	}
	w->team_threads = 0;
}

/* Does a run of variant impl with a team of threads start OpenMP
 * threads on w?  Then it pays a one-time cost. */
static int starts_team(struct pph_worker *w, const struct pph_task *t, int impl,
		       unsigned threads)
{
	if (t->cl->impls[impl].arch != PPH_ARCH_OPENMP || threads <= w->omp_started)
		return 0;
	w->omp_started = threads;
	return 1;
}

/* Say why t's data could not be brought to w: past a device memory limit,
 * which limit and what the call needs. */
static void cannot_bring(const struct pph_task *t, const struct pph_worker *w, int rc)
{
	size_t limit = w->node ? pph__mem_limit(w->node) : 0;
	unsigned long long bytes = 0;
	unsigned i;

	for (i = 0; i < t->nbuffers; i++)
		bytes += pph__data_size(t->handles[i]);
	if (rc == -ENOMEM && limit)
		fprintf(stderr, "peppher: %s: cannot bring data to worker %u: its %.1f MiB do not fit in the %zu MiB of PEPPHER_LIMIT_%s_MEM beside what running tasks hold\n",
			t->cl->name, w->id, (double)bytes / (1 << 20), limit >> 20,
			w->arch == PPH_ARCH_CUDA ? "CUDA" : "OPENCL");
	else
		fprintf(stderr, "peppher: %s: cannot bring data to worker %u (%.1f MiB): %s\n",
			t->cl->name, w->id, (double)bytes / (1 << 20), strerror(-rc));
}

/*
 * Run t on w.  With busy, a core that a team holds is not waited for
 * holding t (team_enter): t goes back to the scheduler, its data as it
 * was, and *busy says which lock to wait for.  dmda's ran is not told:
 * the team's end frees those workers.
 */
static void run_task(struct pph_worker *w, struct pph_task *t, pthread_rwlock_t **busy)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	int impl = pph__choose_impl(t, w->arch), rc;
	double entered, t0, us;
	unsigned threads;
	int team;
	double spent;
	struct pph_running outer;
	struct pph_fpenv_saved fp;
	int paid;

	atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);

	if (impl < 0) { /* its variant for this worker was disabled meanwhile */
		pph__task_place_again(t);
		return;
	}

	rc = pph__task_acquire_data(t, w->node, buffers, &saved);
	if (rc) {
		/* the data stays as it was: the task does not run */
		cannot_bring(t, w, rc);
		t->error = rc;
		pph__task_finish(t);
		return;
	}
	if (w->node)
		pph__wait_copies_in(w->node);
	/* a fork-join variant's team may start first (pin_team) */
	entered = t->cl->impls[impl].arch == PPH_ARCH_OPENMP ? pph__now_us() : 0;
	team = team_enter(w, t, impl, busy);
	if (team < 0) {
		pph__task_restore_data(t, &saved);
		pph__task_release_data(t, w->node);
		pph__task_enqueue(t);
		return;
	}
	/* a fork-join variant has a history per team size */
	threads = t->cl->impls[impl].arch == PPH_ARCH_OPENMP ? pph__task_team(t) : 1;
	paid = starts_team(w, t, impl, threads);
	spent = pph__one_time_us;
	t0 = pph__now_us();
	outer = pph__running;
	pph__running = (struct pph_running){ t, (unsigned)impl };
	if (!w->node) /* not a device's host code (fpenv.h) */
		pph_fpenv_enter(&t->fpenv, &fp);
	errno = t->errno_value;
	t->cl->impls[impl].fn(buffers, t->arg);
	t->errno_value = errno;
	if (!w->node)
		pph_fpenv_leave(&t->fpenv, &fp);
	pph__running = outer;
	spent = pph__one_time_us - spent;
	if (team)
		team_leave(w, t, impl);
	if (pph__rt.sched->ran)
		pph__rt.sched->ran(w, t);
	if (variant_failed(w)) {
		retry_elsewhere(w, t, impl, &saved);
		return;
	}
	us = pph__now_us() - t0;
	/* a contribution's accumulator comes home: a copy the estimate
	 * charges (pph__transfer_estimate), not the variant's run */
	if (w->node && pph__redux_fetch(t, w->node) != 0) {
		retry_elsewhere(w, t, impl, &saved);
		return;
	}
	pph__task_release_data(t, w->node);
	t->impl_ran = impl;
	t->worker_ran = (int)w->id;
	/* with its team's start (a change of size): not a hand-over's cost */
	t->ran_us = us + (entered > 0 ? t0 - entered : 0);
	/* a run that built a program is still held back as a warm-up at
	 * most: what follows a build (the first launch) is slow too */
	if (!t->error) /* a variant that gave up part way took no telling time */
		pph__perfmodel_record_run(t->cl, (unsigned)impl, w->arch, threads, t->footprint,
					  t->size, fmax(us - spent, 0), paid || spent > 0,
					  t->sched_refresh);
	if (w->node)
		pph__perfmodel_record_setup(t->cl, (unsigned)impl, w->arch, threads, w->node,
					    spent);
	pph__worker_record(w, t, us / 1e3, threads);
	if (pph__trace_enabled())
		pph__trace_slice(w, t->cl, (unsigned)impl, "task", t0, us,
				 t->sched_why.reason ? &t->sched_why : NULL);
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finish(t);
}

/* The outer task's state on w while w runs others inside its variant. */
struct outer {
	const struct pph_task *team_task;
	int team_impl;
	unsigned team_threads;
	int variant_failed;
};

/* Let the outer variant's team locks go (a task run now takes them
 * anew: the rwlock is not recursive, and a fork-join task needs them
 * exclusive), and keep what it said of itself. */
static void outer_suspend(struct pph_worker *w, struct outer *o)
{
	o->team_task = w->team_task;
	o->team_impl = w->team_impl;
	o->team_threads = w->team_threads;
	o->variant_failed = w->variant_failed;
	w->variant_failed = 0;
	if (o->team_task)
		team_leave(w, o->team_task, o->team_impl);
}

static void outer_resume(struct pph_worker *w, const struct outer *o)
{
	if (o->team_task)
		team_enter(w, o->team_task, o->team_impl, NULL);
	w->team_threads = o->team_threads;
	w->variant_failed = o->variant_failed;
}

/* Ready work appears, or done(arg): wait on rt.done_cond for a short while
 * (finishers signal it; pushes do not, hence the timeout). */
static void nap(int (*done)(const void *), const void *arg)
{
	struct timespec until;

	if (pph__spin_until(done, arg))
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 200 * 1000;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&pph__rt.lock);
	atomic_fetch_add(&pph__rt.waiters, 1);
	if (!done(arg))
		pthread_cond_timedwait(&pph__rt.done_cond, &pph__rt.lock, &until);
	atomic_fetch_sub(&pph__rt.waiters, 1);
	pthread_mutex_unlock(&pph__rt.lock);
}

void pph__worker_help_until(struct pph_worker *w, int (*done)(const void *), const void *arg)
{
	struct outer o;

	if (done(arg))
		return;
	outer_suspend(w, &o);
	while (!done(arg)) {
		struct pph_task *t = pph__rt.sched->try_pop(w);
		pthread_rwlock_t *busy = NULL;

		/* a task given back (its cores held by a team) is not
		 * waited for here: this wait may be what the team waits for */
		if (t)
			run_task(w, t, &busy);
		if (!t || busy)
			nap(done, arg);
	}
	outer_resume(w, &o);
}

void pph__team_help_until(int (*done)(const void *), const void *arg)
{
	while (!done(arg)) {
		struct pph_task *t = pph__rt.sched->try_pop(team_member);

		if (t)
			pph__task_run_in_team(t);
		else
			nap(done, arg);
	}
}

/*
 * CPU workers that start their teams (start_teams) wait until every worker
 * is bound to its core (each team's pins name its members' cores), and
 * pph__workers_start waits until they are done.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int teams;         /* do CPU workers start their teams? */
	int state;         /* 0: workers being started; 1: all bound; -1: start failed */
	unsigned starting; /* CPU workers not done with it */
} start_gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

static void gate_pass(struct pph_worker *w)
{
	int state;

	pthread_mutex_lock(&start_gate.lock);
	while (!(state = start_gate.state))
		pthread_cond_wait(&start_gate.cond, &start_gate.lock);
	pthread_mutex_unlock(&start_gate.lock);
	if (state > 0)
		start_teams(w);
	pthread_mutex_lock(&start_gate.lock);
	start_gate.starting--;
	pthread_cond_broadcast(&start_gate.cond);
	pthread_mutex_unlock(&start_gate.lock);
}

/* Open the gate (state 1, or -1 after a failed start) and wait for the
 * CPU workers that pass it. */
static void gate_open(int state)
{
	pthread_mutex_lock(&start_gate.lock);
	start_gate.state = state;
	pthread_cond_broadcast(&start_gate.cond);
	while (start_gate.starting)
		pthread_cond_wait(&start_gate.cond, &start_gate.lock);
	pthread_mutex_unlock(&start_gate.lock);
}

static void *worker_main(void *arg)
{
	struct pph_worker *w = arg;
	struct pph_task *t;
	char name[16];

	/* named for perf, top -H and gdb: "pph-CPU0", "pph-OPENCL2" */
	snprintf(name, sizeof name, "pph-%s%u", pph_arch_name(w->arch), w->id);
	(void)pthread_setname_np(pthread_self(), name);
	pph__current_worker = w;
	if (w->arch == PPH_ARCH_OPENCL)
		pph__opencl_bind_thread(pph__rt.nodes[w->node].driver);
	else if (w->arch == PPH_ARCH_CUDA)
		pph__cuda_bind_thread(pph__rt.nodes[w->node].driver);
	else if (start_gate.teams)
		gate_pass(w);
	while ((t = pph__rt.sched->pop(w))) {
		pthread_rwlock_t *busy = NULL;

		run_task(w, t, &busy);
		if (busy) { /* until the team that holds it is done */
			pthread_rwlock_rdlock(busy);
			pthread_rwlock_unlock(busy);
		}
	}
	return NULL;
}

/*
 * Keep only the cores the thread calling pph_init may run on in the
 * topology (taskset, mpirun's --bind-to, a batch system's affinity): the
 * workers it starts inherit that binding, and an OpenMP runtime sizes its
 * team from it too.  hwloc already leaves out the cores a cgroup
 * disallows.  Without this, two ranks bound to a core each on one node
 * both started a worker per core of the node and bound them there,
 * outside the cores they were given.  A binding that cannot be read or
 * restricted to keeps the whole topology: binding is an optimization.
 */
static void keep_bound_cores(void)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (set && hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0 &&
	    hwloc_bitmap_intersects(set, hwloc_topology_get_topology_cpuset(topology)) &&
	    !hwloc_bitmap_isincluded(hwloc_topology_get_topology_cpuset(topology), set))
		(void)hwloc_topology_restrict(topology, set, 0);
	hwloc_bitmap_free(set);
}

/* One worker per core pph_init's thread may run on (keep_bound_cores). */
static unsigned default_ncpu(void)
{
	int n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);

	if (n <= 0)
		n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
	return n > 0 ? (unsigned)n : 1;
}

/*
 * The worker that leads the team of threads from base: the whole CPU
 * team's is worker 0, a smaller team's its middle member, so that no
 * worker leads teams of two sizes (16 workers: 0 leads 16, 4 and 12 lead
 * 8, 2, 6, 10 and 14 lead 4, the odd ones 2).  libgomp keeps a thread
 * pool per thread that starts regions, and resizes it when that thread
 * starts a region of another size: it ends or starts threads.  Measured
 * here (teams of 8 on 2 cores, passive wait), a region of 8 took 46 us
 * after one of 8, 103 us after one of 4 from the same thread, 49 us
 * from a thread that starts only regions of 8; on the H100 machine's 16
 * cores bfs at 20,000 nodes left 230-560 us between levels at each change
 * of size, 30 us otherwise.  A region of one thread leaves the pool as it
 * is.  Where the middle member's own block is another (the last, shifted
 * block of a count that is not a power of two), the first member leads.
 */
static unsigned team_leader(unsigned base, unsigned threads)
{
	unsigned middle = base + threads / 2;

	if (threads == pph__rt.arch_workers[PPH_ARCH_CPU])
		return 0;
	return pph__team_base(middle, threads) == base ? middle : base;
}

/* Describe the workers: CPU cores first, then one per device node. */
static void describe_workers(unsigned ncpu)
{
	unsigned i, n, k, nsizes, sizes[PPH_MAX_TEAM_SIZES];

	for (i = 0; i < ncpu; i++) {
		struct pph_worker *w = &pph__rt.workers[i];

		pthread_rwlockattr_t a;

		w->id = i;
		w->arch = PPH_ARCH_CPU;
		w->node = 0;
		w->core = -1;
		w->leads = 0;
		pthread_rwlockattr_init(&a);
		pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		pthread_rwlock_init(&w->team_lock, &a);
		pthread_rwlockattr_destroy(&a);
	}
	pph__rt.arch_workers[PPH_ARCH_CPU] = ncpu;
	nsizes = pph__team_sizes(sizes);
	for (i = 0; i < ncpu; i++)
		for (k = 0; k < nsizes; k++)
			if (sizes[k] == 1 ||
			    team_leader(pph__team_base(i, sizes[k]), sizes[k]) == i)
				pph__rt.workers[i].leads |= 1u << k;
	for (n = 1; n < pph__rt.nnodes; n++, i++) {
		struct pph_worker *w = &pph__rt.workers[i];

		w->id = i;
		w->arch = pph__rt.nodes[n].arch;
		w->node = n;
		w->core = -1;
		pph__rt.arch_workers[w->arch]++;
	}
	pph__rt.nworkers = i;
}

/*
 * The core of an idle CPU worker, held by an application thread that runs
 * a task in the worker's place (pph__run_claimed): its team_lock, as the
 * worker would take it for a CPU variant (shared) or a fork-join variant of
 * one thread (exclusive).  One at a time: a run inside that run, or a wait,
 * lets it go first (a task queued for that worker meanwhile may need it,
 * and two held out of worker order could wait for a team in a cycle).
 */
static PPH_TLS struct pph_core_hold here_core;

void pph__core_take(struct pph_worker *w, int exclusive, struct pph_core_hold *outer)
{
	*outer = here_core;
	if (here_core.locked)
		pthread_rwlock_unlock(&here_core.w->team_lock);
	here_core = (struct pph_core_hold){ w, exclusive, 0 };
	if (w && atomic_load(&pph__rt.has_parallel)) {
		if (exclusive)
			pthread_rwlock_wrlock(&w->team_lock);
		else
			pthread_rwlock_rdlock(&w->team_lock);
		here_core.locked = 1;
	}
}

void pph__core_give(const struct pph_core_hold *outer)
{
	struct pph_core_hold none;

	pph__core_take(outer->w, outer->exclusive, &none);
}

int pph_openmp_threads(void)
{
	const struct pph_worker *w = pph__current_worker;

	if (w && w->team_threads)
		return (int)w->team_threads;
	if (!w && here_core.w && here_core.exclusive)
		return 1; /* a fork-join variant of one thread, run in a worker's place */
	if (!w && team_member)
		return 1; /* run by a team's thread, inside the team's region */
	return (int)(pph__rt.arch_workers[PPH_ARCH_CPU] ? pph__rt.arch_workers[PPH_ARCH_CPU] : 1);
}

/* Does the program link an OpenMP runtime whose regions can be started? */
static int links_openmp(void)
{
	pthread_once(&gomp_once, find_gomp);
	return gomp.parallel && gomp.thread_num && gomp.level;
}

/* The attributes a worker starts with (worker_stack.h), or NULL for the
 * defaults. */
static pthread_attr_t *worker_stack(pthread_attr_t *attr)
{
	size_t bytes = pph__stack_bytes(pph__rt.stack_bytes);

	if (!bytes || pthread_attr_init(attr) != 0)
		return NULL;
	if (pthread_attr_setstacksize(attr, bytes) != 0) {
		pthread_attr_destroy(attr);
		return NULL;
	}
	return attr;
}

int pph__workers_start(unsigned ncpu, int ncuda, int nopencl, int openmp)
{
	unsigned i, ndev;
	pthread_attr_t attr, *stack;

	/* hwloc says why in errno: a malloc that failed in it was said as
	 * "No such device" */
	errno = 0;
	if (hwloc_topology_init(&topology) != 0)
		return errno ? -errno : -ENOMEM;
	if (hwloc_topology_load(topology) != 0) {
		int rc = errno ? -errno : -ENODEV;

		hwloc_topology_destroy(topology);
		return rc;
	}
	keep_bound_cores();
	if (!ncpu)
		ncpu = default_ncpu();
	ndev = pph__cuda_start(ncuda);
	ndev += pph__opencl_start(nopencl);
	if (ncpu + ndev > PPH_MAX_WORKERS)
		ncpu = PPH_MAX_WORKERS - ndev;
	/* aligned, so that each worker's lines are its own (struct pph_worker) */
	if (posix_memalign((void **)&pph__rt.workers, PPH_CACHE_LINE,
			   (ncpu + ndev) * sizeof(*pph__rt.workers)) != 0)
		pph__rt.workers = NULL;
	else
		memset(pph__rt.workers, 0, (ncpu + ndev) * sizeof(*pph__rt.workers));
	if (!pph__rt.workers) {
		pph__opencl_stop();
		pph__cuda_stop();
		hwloc_topology_destroy(topology);
		return -ENOMEM;
	}
	describe_workers(ncpu);
	start_gate.teams = ncpu > 1 && (openmp > 0 || (openmp < 0 && links_openmp()));
	start_gate.state = 0;
	start_gate.starting = start_gate.teams ? ncpu : 0;
	stack = worker_stack(&attr);
	for (i = 0; i < pph__rt.nworkers; i++) {
		struct pph_worker *w = &pph__rt.workers[i];

		if (pthread_create(&w->thread, stack, worker_main, w) != 0 &&
		    (!stack || pph__rt.stack_bytes ||
		     pthread_create(&w->thread, NULL, worker_main, w) != 0))
			break;
		if (w->arch == PPH_ARCH_CPU)
			bind_to_core(w);
	}
	if (start_gate.teams) {
		/* the CPU workers never started do not pass the gate */
		pthread_mutex_lock(&start_gate.lock);
		start_gate.starting -= ncpu - (i < ncpu ? i : ncpu);
		pthread_mutex_unlock(&start_gate.lock);
		gate_open(i < pph__rt.nworkers ? -1 : 1);
	}
	if (stack)
		pthread_attr_destroy(stack);
	if (i < pph__rt.nworkers) {
		/* stop the workers already running; they saw no task */
		pph__rt.nworkers = i;
		pph__workers_stop();
		free(pph__rt.workers);
		pph__rt.workers = NULL;
		pph__rt.nworkers = 0;
		return -EAGAIN;
	}
	return 0;
}

void pph__workers_stop(void)
{
	unsigned i;

	pph__rt.sched->wake_all();
	for (i = 0; i < pph__rt.nworkers; i++)
		pthread_join(pph__rt.workers[i].thread, NULL);
	for (i = 0; i < pph__rt.arch_workers[PPH_ARCH_CPU]; i++)
		pthread_rwlock_destroy(&pph__rt.workers[i].team_lock);
	for (i = 1; i < pph__rt.nnodes; i++) /* cached buffers, while drivers live */
		pph__mem_node_release(i);
	pph__opencl_stop();
	pph__cuda_stop();
	hwloc_topology_destroy(topology);
}
