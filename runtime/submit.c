/*
 * Submission: how a submitted task runs (how_to_run), and the three ways the
 * submitting thread runs one itself.  The task's states and the
 * transitions made here are drawn in doc/design-notes.md.
 *
 * A ready task runs on the thread that submits it, instead of being handed
 * to a worker, in two cases:
 *  - more than PPH_BACKLOG tasks per worker are pending, as libgomp does
 *    beyond 64 queued tasks per thread: a backlog that long keeps every
 *    worker busy anyway (run_at_once);
 *  - the task is tiny: its calibrated model predicts less than
 *    PEPPHER_TINY_US, less than handing it to a worker costs the
 *    submitting thread (cache lines of the task, the queue and the
 *    counters change cores).  Otherwise a worker that keeps up with such
 *    tasks makes every one pay the hand-over, and only a backlog, which it
 *    prevents, would stop that.  A tiny task runs in place (run_in_place):
 *    holding its handles' locks, listed on none.
 * Only a task with exactly one variant that can run, a CPU one, so that no
 * scheduling choice is taken from the scheduler; never while fork-join
 * teams may own the cores, nor while tracing (the trace has one track per
 * worker).
 *
 * Third, a synchronous call's task (pph__task_submit_and_wait) that the
 * scheduler chose for an idle CPU worker, with a variant of one thread:
 * the scheduler gives it back (pph__task_claim) and the call's thread runs
 * it in that worker's place, holding its core (run_claimed), instead of
 * waking the worker and sleeping until woken itself.  The choice stays the
 * scheduler's; not while tracing either.
 *
 * PEPPHER_UNDEFERRED=0 turns all three off.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "perfmodel.h"

#define PPH_BACKLOG 64 /* pending tasks per worker */
/*
 * Only one tiny task in PPH_TINY_SAMPLE is timed: reading the clock twice
 * costs more than an empty task.  The busy time in the statistics is
 * estimated from that sample.
 */
#define PPH_TINY_SAMPLE 256

/* a thread asks again after this many tasks of one kind */
#define PPH_VERDICT_USES 1024

/* What the submitting thread may do with a kind of task. */
enum pph_kind {
	PPH_KIND_REFUSED,	/* cannot be submitted (verdict.rc says why) */
	PPH_KIND_WORKERS,	/* workers only: not one CPU variant, teams, tracing, ... */
	PPH_KIND_UNCALIBRATED,	/* one CPU variant, no model yet: run beyond the backlog,
				 * and ask the model again at the next task */
	PPH_KIND_BACKLOG,	/* one CPU variant, not tiny: run beyond the backlog */
	PPH_KIND_TINY,		/* one CPU variant, tiny: run in place */
};

/* How a submitted task runs (how_to_run). */
enum pph_path {
	PPH_PATH_REFUSED,  /* it cannot be submitted: verdict.rc says why */
	PPH_PATH_QUEUE,	   /* listed on its handles, counted, queued when ready */
	PPH_PATH_AT_ONCE,  /* listed; run here if ready at once, else queued */
	PPH_PATH_IN_PLACE, /* run here holding its handles' locks; else at once */
};

/*
 * What this thread found of the last kind of task it submitted (codelet,
 * variants allowed, data shapes).  The loops over variants and workers and
 * the model's lock were a third of submitting an empty task; a task of the
 * same kind reuses the answers.  What they depend on changes only with the
 * generation: pph_init, a variant disabled, the first OPENMP variant.
 */
static PPH_TLS struct {
	const struct pph_codelet *cl;
	unsigned impl_mask;
	uint32_t footprint;
	unsigned generation; /* of the runtime they were found in */
	unsigned uses;	     /* left before finding them again */
	int rc;		     /* of submitting it: 0, -EINVAL (bad codelet), -ENODEV */
	enum pph_kind kind;
	unsigned impl; /* the one CPU variant, from PPH_KIND_UNCALIBRATED on */
	struct pph_pm_variant *counts; /* its model: where its tiny runs count */
} verdict;

/* The task this thread runs in place while it holds its handles' locks
 * (they are let go when the task is listed: pph__list_held_task), or NULL. */
static PPH_TLS struct pph_task *held;
/* Variants this thread runs at submission (one may submit another). */
PPH_TLS unsigned pph__running_here;

/*
 * A variant left by longjmp.  C libraries report errors so: libpng's and
 * libjpeg's handlers jump to the application's setjmp, out of the library
 * call, and so out of a variant that wraps it.  Run on this thread, the
 * variant never returns to the runtime: its task would stay running, its
 * handles' locks and its worker's core held, and this thread counted
 * inside a task (pph_shutdown refused).  So each variant run here is noted
 * with the frame that called it.  A later entry into the runtime from this
 * thread (a call of wrappers.c, pph_shutdown; not pph_task_submit, where
 * the check cost 1 ns a task) from a frame that is not below it (the
 * stack grows down) cannot be inside that variant: the variant was left,
 * and its task ends then, with -EINTR, its data as the variant left it.
 * A live variant is never taken for a left one: whatever it calls is
 * below its frame.  A left one is found at the first entry from as high
 * up, at the latest at pph_shutdown.  The notes (struct pph_here_run,
 * PPH_HERE_DEPTH deep) are this thread's struct pph_thread's: 2.3 KiB,
 * too much for static TLS (threads.c).
 */
static inline struct pph_here_run *here_run_slot(void)
{
	struct pph_thread *th = pph__thread;

	if (pph__running_here >= PPH_HERE_DEPTH)
		return NULL;
	if (!th && !(th = pph__thread_make()))
		return NULL; /* no memory: a longjmp out of this one goes unseen */
	return &th->here_runs[pph__running_here];
}

/* This thread's pph_task_submit calls under way (the runtime's own, such
 * as a reduction's combine, nest in the application's), the outermost
 * counted in pph__rt.submitting: uncounted when it returns, or when a
 * variant it ran here is left by longjmp and it never returns. */
static PPH_TLS int submissions;
static PPH_TLS int here_failed; /* pph_variant_failed() on this thread */
static PPH_TLS unsigned sample;

void pph__here_variant_failed(void)
{
	here_failed = 1;
}

int pph__running_task_here(void)
{
	return pph__current_worker || pph__running_here;
}

void pph__list_held_task(void)
{
	struct pph_task *t = held;

	if (!t)
		return;
	held = NULL;
	pph__deps_list_held(t);
	atomic_store_explicit(&t->state, PPH_TASK_RUNNING_HERE, memory_order_relaxed);
}

/* ---- the verdict on a kind of task ---- */

/* The one variant that can run t, if it is a CPU one; else -1. */
static int only_cpu_variant(const struct pph_task *t)
{
	const struct pph_codelet *cl = t->cl;
	int found = -1;
	unsigned i, a;

	for (i = 0; i < cl->nimpls; i++) {
		if (!pph__impl_allowed(t, i))
			continue;
		for (a = 0; a < PPH_ARCH_COUNT; a++)
			if (pph__rt.arch_workers[a] &&
			    pph__arch_can_run((enum pph_arch)a, cl->impls[i].arch))
				break;
		if (a == PPH_ARCH_COUNT)
			continue; /* no worker for it */
		if (found >= 0 || cl->impls[i].arch != PPH_ARCH_CPU)
			return -1;
		found = (int)i;
	}
	return found;
}

/* Fork-join teams may own the cores from the first OPENMP variant on:
 * nothing runs at submission any more (see may_run_here). */
static void note_parallel(const struct pph_codelet *cl)
{
	unsigned i;

	for (i = 0; i < cl->nimpls; i++)
		if (cl->impls[i].arch == PPH_ARCH_OPENMP &&
		    !atomic_exchange(&pph__rt.has_parallel, 1))
			atomic_fetch_add(&pph__rt.generation, 1);
}

/* Whether this thread may run tasks at submission at all. */
static int may_run_here(void)
{
	return pph__rt.undeferred && !pph__current_worker &&
	       !atomic_load_explicit(&pph__rt.has_parallel, memory_order_relaxed) &&
	       !pph__trace_enabled();
}

/* Is variant impl of t tiny?  Asks its model: PPH_KIND_UNCALIBRATED while
 * it cannot say.  Not without a model to count its tiny runs in. */
static enum pph_kind ask_model(const struct pph_task *t, unsigned impl)
{
	double us;

	if (!pph__rt.tiny_us || !verdict.counts)
		return PPH_KIND_BACKLOG;
	us = pph__perfmodel_predict(t->cl, impl, PPH_ARCH_CPU, 1, t->footprint, t->size);
	if (us < 0)
		return PPH_KIND_UNCALIBRATED;
	return us < pph__rt.tiny_us ? PPH_KIND_TINY : PPH_KIND_BACKLOG;
}

static __attribute__((noinline)) void find_verdict(const struct pph_task *t,
						   unsigned generation)
{
	int impl;

	verdict.cl = t->cl;
	verdict.impl_mask = t->impl_mask;
	verdict.footprint = t->footprint;
	verdict.generation = generation;
	verdict.uses = PPH_VERDICT_USES;
	verdict.rc = pph__codelet_check(t->cl);
	if (!verdict.rc && !pph__task_runnable(t))
		verdict.rc = -ENODEV;
	if (verdict.rc) {
		verdict.kind = PPH_KIND_REFUSED;
		return;
	}
	if (!atomic_load(&pph__rt.has_parallel))
		note_parallel(t->cl);
	verdict.kind = PPH_KIND_WORKERS;
	if (!may_run_here() || (impl = only_cpu_variant(t)) < 0)
		return;
	verdict.impl = (unsigned)impl;
	verdict.counts = pph__perfmodel_cpu_variant(t->cl, verdict.impl);
	verdict.kind = ask_model(t, verdict.impl);
}

/* The verdict on t's kind, found again when stale. */
static inline enum pph_kind kind_of(const struct pph_task *t)
{
	unsigned generation = atomic_load_explicit(&pph__rt.generation, memory_order_relaxed);

	if (!verdict.uses || verdict.cl != t->cl || verdict.impl_mask != t->impl_mask ||
	    verdict.footprint != t->footprint || verdict.generation != generation)
		find_verdict(t, generation);
	verdict.uses--;
	return verdict.kind;
}

/* The one place that decides how a submitted task runs. */
static inline enum pph_path how_to_run(const struct pph_task *t)
{
	unsigned long backlog = (unsigned long)PPH_BACKLOG * pph__rt.nworkers;
	enum pph_kind kind = kind_of(t);

	if (kind == PPH_KIND_REFUSED)
		return PPH_PATH_REFUSED;
	if (kind == PPH_KIND_UNCALIBRATED)
		kind = verdict.kind = ask_model(t, verdict.impl);
	if (kind == PPH_KIND_TINY)
		return PPH_PATH_IN_PLACE;
	if (kind == PPH_KIND_WORKERS ||
	    atomic_load_explicit(&pph__rt.pending, memory_order_relaxed) <= backlog)
		return PPH_PATH_QUEUE;
	return PPH_PATH_AT_ONCE;
}

/* ---- running a task on the submitting thread ---- */

/*
 * Run the task's variant on this thread with its data acquired; returns 0,
 * or -1 if the variant said it could not run (pph_variant_failed).  A tiny
 * task is timed 1 in PPH_TINY_SAMPLE, and its busy time estimated.  Host
 * replicas are not pinned: nothing to release afterwards.
 */
static inline __attribute__((always_inline)) int run_variant_here(struct pph_task *t,
								  unsigned impl, void *buffers[],
								  struct pph_pm_variant *tiny,
								  struct pph_worker *w,
								  const struct pph_core_hold *outer)
{
	int timed = !tiny || sample++ % PPH_TINY_SAMPLE == 0;
	double t0 = 0, us = 0, spent = pph__one_time_us;
	struct pph_running running;
	struct pph_here_run *r;

	if (timed)
		t0 = pph__now_us();
	if ((r = here_run_slot())) {
		r->t = t;
		r->impl = impl;
		r->frame = __builtin_frame_address(0);
		r->w = w;
		if (outer)
			r->outer = *outer;
		r->running = pph__running;
		r->in_submission = submissions > 0;
	}
	pph__running_here++;
	running = pph__running;
	pph__running = (struct pph_running){ t, impl };
	errno = t->errno_value;
	t->cl->impls[impl].fn(buffers, t->arg);
	t->errno_value = errno;
	pph__running = running;
	pph__running_here--;
	if (timed)
		us = pph__now_us() - t0;
	if (here_failed) {
		here_failed = 0;
		return -1;
	}
	t->impl_ran = (int)impl;
	t->worker_ran = PPH_WORKER_APPLICATION;
	/* a run that paid a one-time cost is a warm-up at most, as on a worker */
	spent = pph__one_time_us - spent;
	if (timed && !t->error)
		pph__perfmodel_record_run(t->cl, impl, PPH_ARCH_CPU, 1, t->footprint, t->size,
					  fmax(us - spent, 0), spent > 0, t->sched_refresh);
	if (!tiny) {
		pph__app_record(t, us / 1e3);
		return 0;
	}
	atomic_fetch_add_explicit(&tiny->tiny_runs, 1, memory_order_relaxed);
	if (timed)
		atomic_fetch_add_explicit(&tiny->tiny_ns,
					  (unsigned long long)(us * 1e3 * PPH_TINY_SAMPLE),
					  memory_order_relaxed);
	return 0;
}

/* End the task of a variant left by longjmp (here_runs). */
static __attribute__((noinline)) void end_left_variant(const struct pph_here_run *r)
{
	struct pph_task *t = r->t;

	fprintf(stderr, "peppher: %s: variant %s was left without returning (longjmp): its call ends with its data as the variant left it\n",
		t->cl->name, t->cl->impls[r->impl].name);
	if (held == t) {
		held = NULL;
		pph__deps_unhold(t);
	}
	if (r->w) {
		pph__core_give(&r->outer);
		if (pph__rt.sched->ran)
			pph__rt.sched->ran(r->w, t);
	}
	here_failed = 0;
	t->error = -EINTR;
	/* made by a call (wrappers.c), whose frame is gone too: nobody
	 * else will destroy it */
	if (t->by_call)
		t->detached = 1;
	pph__task_finish(t);
}

void pph__here_left_slow(const void *frame)
{
	struct pph_thread *th = pph__thread;
	struct pph_here_run *r;

	/* a note not made (no memory for th when it ran) is zeroed, its t NULL */
	while (th && pph__running_here > 0 && pph__running_here <= PPH_HERE_DEPTH &&
	       (r = &th->here_runs[pph__running_here - 1])->t &&
	       (const char *)frame >= r->frame) {
		pph__running_here--;
		pph__running = r->running;
		if (r->in_submission && submissions > 0) {
			submissions = 0; /* the submissions will not return */
			atomic_fetch_sub(&pph__rt.submitting, 1);
		}
		end_left_variant(r);
	}
}

/* Count and number a task as queue() does: from here on, workers run it. */
static void hand_to_workers(struct pph_task *t)
{
	pph__task_share(t); /* a task without data run in place was not */
	atomic_fetch_add(&pph__rt.pending, 1);
	t->seq = atomic_fetch_add(&pph__rt.seq, 1);
	atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);
}

/* The variant of t, run here and listed on its handles, failed: its data
 * back as it was, then another variant, or an error. */
static __attribute__((noinline)) void failed_here(struct pph_task *t, unsigned impl,
						  const struct pph_replica_states *saved)
{
	pph__task_restore_data(t, saved);
	hand_to_workers(t);
	pph__task_variant_failed(t, (int)impl);
}

/*
 * A tiny task runs in place when no unfinished task it would wait for is
 * listed on its handles: it takes their locks (trylock: it never waits
 * holding one) and runs holding them, listed on none.  Should its variant
 * call the runtime, the task is listed first and lets the locks go
 * (pph__list_held_task), from then on a task run here like any other.
 * Returns 1 if it ran (or failed and went to the workers), 0 if it is to
 * be listed: its handles are busy, or its data cannot be had.
 */
static inline __attribute__((always_inline)) int run_in_place(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	/* the variant may submit tasks of other kinds */
	unsigned impl = verdict.impl;
	struct pph_pm_variant *counts = verdict.counts;
	int rc;

	if (t->nbuffers) {
		if (!pph__deps_hold(t))
			return 0;
		if (pph__task_acquire_data(t, 0, buffers, &saved) != 0) {
			pph__deps_unhold(t); /* listed: a worker reports the failure */
			return 0;
		}
		held = t;
	}
	atomic_store_explicit(&t->state, PPH_TASK_RUNNING_IN_PLACE, memory_order_relaxed);
	rc = run_variant_here(t, impl, buffers, counts, NULL, NULL);
	if (rc != 0) {
		pph__list_held_task(); /* later tasks wait for its retry */
		failed_here(t, impl, &saved);
		return 1;
	}
	if (held) { /* still in place: nothing else saw it */
		held = NULL;
		pph__deps_unhold(t);
	}
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finish(t);
	return 1;
}

/* Run a listed task that was ready at its submission here, now.  Returns
 * 1 if it ran (or failed and went to the workers), 0 if it is to be
 * queued (its data cannot be had: a worker reports it). */
static int run_at_once(struct pph_task *t, int tiny)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	unsigned impl = verdict.impl;
	struct pph_pm_variant *counts = tiny ? verdict.counts : NULL;

	if (pph__task_acquire_data(t, 0, buffers, &saved) != 0)
		return 0;
	atomic_store_explicit(&t->state, PPH_TASK_RUNNING_HERE, memory_order_relaxed);
	if (run_variant_here(t, impl, buffers, counts, NULL, NULL) != 0) {
		failed_here(t, impl, &saved);
		return 1;
	}
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finish(t);
	return 1;
}

/* ---- a synchronous call's task, run by its waiting caller ---- */

/*
 * The task of the synchronous call this application thread is submitting
 * (pph__task_submit_and_wait), and, when the scheduler gave it back
 * (pph__task_claim), the idle CPU worker whose place it takes.
 */
static PPH_TLS struct pph_task *sync_call, *claimed;
static PPH_TLS struct pph_worker *claimed_for;

int pph__task_claimable(const struct pph_task *t)
{
	return t == sync_call && pph__rt.undeferred && !pph__trace_enabled();
}

void pph__task_claim(struct pph_task *t, struct pph_worker *w)
{
	claimed = t;
	claimed_for = w;
}

/*
 * The end of a variant run here for a task counted and listed (claimed,
 * or run for its caller): its data back and another variant where it
 * failed, else its callback and its end.
 */
static void end_run_here(struct pph_task *t, unsigned impl, int rc,
			 const struct pph_replica_states *saved)
{
	if (rc != 0) {
		pph__task_restore_data(t, saved);
		pph__task_variant_failed(t, (int)impl);
		return;
	}
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finish(t);
}

/*
 * Run a claimed task as worker w would have, on this thread and holding
 * w's core: the call's thread would only have waited meanwhile, and the
 * hand-over costs two wake-ups (the worker's, then the caller's: 30-60 us
 * each on a virtual machine) per call.
 */
static void run_claimed(struct pph_task *t, struct pph_worker *w)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	struct pph_core_hold outer;
	unsigned impl = (unsigned)t->sched_impl;
	int rc;

	atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);
	if (pph__task_acquire_data(t, 0, buffers, &saved) != 0) {
		if (pph__rt.sched->ran)
			pph__rt.sched->ran(w, t);
		pph__task_enqueue(t); /* a worker reports why */
		return;
	}
	pph__core_take(w, t->cl->impls[impl].arch == PPH_ARCH_OPENMP, &outer);
	rc = run_variant_here(t, impl, buffers, NULL, w, &outer);
	pph__core_give(&outer);
	if (pph__rt.sched->ran)
		pph__rt.sched->ran(w, t);
	end_run_here(t, impl, rc, &saved);
}

/*
 * A task taken from a queue by one of a team's OpenMP threads that waits
 * inside the team's region (pph__team_help_until): run here, on the core
 * the team holds for this thread, without a core lock (the team holds it
 * exclusive), a fork-join variant with this thread alone (a nested
 * region).  The member workers whose queues held it cannot run it until
 * the team is done, and the team may be waiting for it.
 */
void pph__task_run_in_team(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	int impl = pph__choose_impl(t, PPH_ARCH_CPU), rc;

	atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);
	if (impl < 0) { /* its variant was disabled meanwhile */
		pph__task_place_again(t);
		return;
	}
	rc = pph__task_acquire_data(t, 0, buffers, &saved);
	if (rc) { /* the data stays as it was: the task does not run */
		fprintf(stderr, "peppher: %s: cannot bring data to the host: %s\n", t->cl->name,
			strerror(-rc));
		t->error = rc;
		pph__task_finish(t);
		return;
	}
	if (run_variant_here(t, (unsigned)impl, buffers, NULL, NULL, NULL) != 0) {
		pph__task_restore_data(t, &saved);
		pph__task_variant_failed(t, impl);
		return;
	}
	if (t->callback)
		t->callback(t->callback_data);
	pph__task_finish(t);
}

/* A synchronous call's task ran on idle workers: what its caller waited
 * beyond the run joins the moving mean of the hand-over's cost, which the
 * scheduler adds to the choices that hand a call over. */
static void note_handover(double us)
{
	double old = atomic_load_explicit(&pph__rt.handover_us, memory_order_relaxed);

	us = fmin(fmax(us, 0), 10000);
	atomic_store_explicit(&pph__rt.handover_us, old + (us - old) / 8, memory_order_relaxed);
}

/*
 * Run a by_caller task handed back ready (PPH_TASK_FOR_CALLER) on this
 * thread, the call's: as run_claimed, in no worker's place.  A variant
 * that fails is disabled and the task handed back again, or failed where
 * no variant is left (pph__task_enqueue).
 */
static void run_for_caller(struct pph_task *t)
{
	void *buffers[PPH_MAX_BUFFERS];
	struct pph_replica_states saved;
	unsigned impl = 0;
	double t0;
	int rc;

	atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);
	/* its mask holds its variants for the caller: the first still allowed
	 * (pph__task_enqueue saw one left) */
	while (impl < t->cl->nimpls && !pph__impl_allowed(t, impl))
		impl++;
	rc = impl < t->cl->nimpls ? pph__task_acquire_data(t, 0, buffers, &saved) : -ENODEV;
	if (rc) { /* its data stays as it was */
		fprintf(stderr, "peppher: %s: cannot bring its data home: %s\n", t->cl->name,
			strerror(-rc));
		t->error = rc;
		pph__task_finish(t);
		return;
	}
	t0 = pph__trace_enabled() ? pph__now_us() : 0;
	rc = run_variant_here(t, impl, buffers, NULL, NULL, NULL);
	if (t0) /* on the application threads' track */
		pph__trace_slice(NULL, t->cl, impl, "task", t0, pph__now_us() - t0, NULL);
	end_run_here(t, impl, rc, &saved);
}

unsigned pph__variants_runnable(const struct pph_codelet *cl, unsigned mask)
{
	unsigned i, a, m = 0;

	for (i = 0; i < cl->nimpls && i < 32; i++) {
		if (!(mask >> i & 1u) ||
		    (atomic_load_explicit(&pph__any_disabled, memory_order_relaxed) &&
		     pph__impl_disabled_mask(cl) >> i & 1u))
			continue;
		for (a = 0; a < PPH_ARCH_COUNT; a++)
			if (pph__rt.arch_workers[a] &&
			    pph__arch_can_run((enum pph_arch)a, cl->impls[i].arch))
				m |= 1u << i;
	}
	return m;
}

int pph__task_submit_and_wait(struct pph_task *t)
{
	double t0 = 0;
	int rc;
	unsigned i;

	/* a call inside a variant on the data its task holds would wait for
	 * that task, which waits for it */
	for (i = 0; pph__running.task && i < t->nbuffers; i++)
		if ((rc = pph__waits_for_running(t->handles[i], t->modes[i], t->cl->name)) != 0)
			return rc;

	/* not from a team's OpenMP thread: the idle worker it would run the
	 * task in the place of may be a member of its team, whose core the
	 * team holds (dmda counts the members idle after a nested run) */
	if (!pph__current_worker && !pph__team_thread()) {
		sync_call = t;
		t0 = pph__now_us();
	}
	rc = pph_task_submit(t);
	sync_call = NULL;
	if (rc)
		return rc;
	while (t->by_caller && pph__task_wait_for_caller(t))
		run_for_caller(t);
	if (claimed == t) {
		claimed = NULL;
		run_claimed(t, claimed_for);
		return pph_task_wait(t);
	}
	rc = pph_task_wait(t);
	if (t0 && t->handed_idle && t->worker_ran >= 0)
		note_handover(pph__now_us() - t0 - t->ran_us);
	return rc;
}

/* ---- handing a task to the workers ---- */

/*
 * Tasks no variant is left for, failed in turn by the outermost
 * fail_unrunnable of this thread: failing one releases its successors,
 * which may fail too, and a chain of 10,000 calls would otherwise recurse
 * as deep.
 */
static PPH_TLS struct pph_task *unrunnable;
static PPH_TLS int failing_unrunnable;

static void fail_unrunnable(struct pph_task *t)
{
	t->next = unrunnable;
	unrunnable = t;
	if (failing_unrunnable)
		return;
	failing_unrunnable = 1;
	while ((t = unrunnable)) {
		unrunnable = t->next;
		t->next = NULL;
		fprintf(stderr, "peppher: %s: no variant left that can run the task\n", t->cl->name);
		t->error = -EIO;
		/* finished as a task that ran (counted pending) */
		atomic_store_explicit(&t->state, PPH_TASK_RUNNING, memory_order_relaxed);
		pph__task_finish(t);
	}
	failing_unrunnable = 0;
}

void pph__task_enqueue(struct pph_task *t)
{
	/* a variant disabled since t was submitted (its kernel failed to
	 * build) may have been the last that could run it: a call waiting on
	 * the failed one, queued now, would wait for good (eager, ws) or be
	 * placed on no worker (dmda) */
	if (atomic_load_explicit(&pph__any_disabled, memory_order_relaxed) &&
	    !pph__task_still_runnable(t)) {
		fail_unrunnable(t);
		return;
	}
	if (t->by_caller) { /* no worker may run it */
		pph__task_hand_to_caller(t);
		return;
	}
	atomic_store_explicit(&t->state, PPH_TASK_QUEUED, memory_order_relaxed);
	pph__rt.sched->push(t);
}

/* A listed task waits for its predecessors, then goes to a queue. */
static void queue(struct pph_task *t)
{
	/* counted before anyone can finish it: predecessors enqueue it only
	 * once ndeps drops below; numbered for the same reason (schedulers
	 * read seq) */
	atomic_store_explicit(&t->state, PPH_TASK_WAITING, memory_order_relaxed);
	atomic_fetch_add(&pph__rt.pending, 1);
	t->seq = atomic_fetch_add(&pph__rt.seq, 1);
	if (atomic_fetch_sub(&t->ndeps, 1) == 1)
		pph__task_enqueue(t);
}

/* ---- submission ---- */

/* Only the submission's count left: ready, and nobody else will touch
 * ndeps, so a task run at once needs no atomic update of it. */
static inline int ready(const struct pph_task *t)
{
	return atomic_load(&t->ndeps) == 1;
}

static int submit(struct pph_task *t)
{
	enum pph_path path = how_to_run(t);

	if (path == PPH_PATH_REFUSED)
		return verdict.rc;
	pph__list_held_task(); /* submitted by a task run in place: list that first */
	/* in place it would never be listed: not a task given edges by
	 * pph__deps_add (shared before its submission), whose successors
	 * only listing lets go */
	if (path == PPH_PATH_IN_PLACE && !t->shared && run_in_place(t))
		return 0; /* a detached task run there is gone */
	pph__deps_list(t);
	if (path != PPH_PATH_QUEUE && ready(t) && run_at_once(t, path == PPH_PATH_IN_PLACE))
		return 0;
	queue(t);
	return 0;
}

/* The variants of cl that run in host memory (CPU, OPENMP), as a mask. */
static unsigned host_variants(const struct pph_codelet *cl)
{
	unsigned i, m = 0;

	for (i = 0; i < cl->nimpls && i < 32; i++)
		if (cl->impls[i].arch == PPH_ARCH_CPU || cl->impls[i].arch == PPH_ARCH_OPENMP)
			m |= 1u << i;
	return m;
}

/*
 * Data registered at NULL that holds elements: C APIs pass NULL for
 * "none" (an optional array and its length), and a variant that delegates
 * to the library expects NULL.  No device can have it (OpenCL refused to
 * copy from NULL, with an error each time dmda tried one): host variants
 * only, or -EFAULT (said as such: "no worker can run" misled, with the
 * device right there).
 */
static int host_data_only(struct pph_task *task)
{
	unsigned i;

	for (i = 0; i < task->nbuffers; i++)
		if (!task->handles[i]->host.iface.vector.ptr && task->handles[i]->bytes)
			break;
	if (i == task->nbuffers)
		return 0;
	if (task->cl->nimpls <= 32 && !(task->impl_mask & host_variants(task->cl)))
		return -EFAULT;
	task->impl_mask &= host_variants(task->cl); /* past the 32nd: always allowed */
	return 0;
}

static int submit_checked(struct pph_task *task);

/* A task no call of wrappers.c runs on its caller's thread: without the
 * variants for that, or -ENODEV where it has no other. */
static int leave_caller_variants(struct pph_task *task)
{
	unsigned mine = pph__caller_variants(task->cl);

	if (!mine)
		return 0;
	task->impl_mask &= ~mine;
	if (task->cl->nimpls <= 32 && !(task->impl_mask & pph__all_variants(task->cl))) {
		fprintf(stderr, "peppher: %s: its variants run on the thread of a synchronous call only (PPH_IMPL_CALLER_THREAD): a task submitted otherwise is refused\n",
			task->cl->name ? task->cl->name : "?");
		return -ENODEV;
	}
	return 0;
}

/* Submitting while pph_shutdown stops the runtime: said once a shutdown. */
int pph__shutting_down(void)
{
	static atomic_uint said; /* the generation it was said in, + 1 */
	unsigned gen = atomic_load(&pph__rt.generation) + 1;

	if (atomic_exchange(&said, gen) != gen)
		fprintf(stderr, "peppher: pph_shutdown() is stopping the runtime: calls and tasks submitted now are refused\n");
	return -ENODEV;
}

int pph__enter(void)
{
	if (pph__running.task || pph__current_worker)
		return 0;
	if (submissions++ == 0) {
		atomic_fetch_add(&pph__rt.submitting, 1);
		/* seq_cst with pph_shutdown's store of stopping and load of
		 * submitting: it sees this thread counted, or this thread
		 * sees it stopping */
		if (atomic_load(&pph__rt.stopping)) {
			submissions = 0;
			atomic_fetch_sub(&pph__rt.submitting, 1);
			return -ENODEV;
		}
	}
	return 1;
}

void pph__leave(void)
{
	if (submissions > 0 && --submissions == 0)
		atomic_fetch_sub(&pph__rt.submitting, 1);
}

int pph__enter_finishing(void)
{
	int rc;

	while ((rc = pph__enter()) < 0)
		pph__wait_stopped();
	return rc;
}

int pph_task_submit(struct pph_task *task)
{
	int rc;

	/* a variant's own submissions belong to a task pph_shutdown waits
	 * for: never refused */
	if (pph__running.task)
		return submit_checked(task);
	if (submissions++ == 0)
		atomic_fetch_add(&pph__rt.submitting, 1);
	rc = atomic_load(&pph__rt.stopping) ? pph__shutting_down() : submit_checked(task);
	if (submissions > 0 && --submissions == 0)
		atomic_fetch_sub(&pph__rt.submitting, 1);
	return rc;
}

int pph__task_submit_entered(struct pph_task *task)
{
	return submit_checked(task);
}

static int submit_checked(struct pph_task *task)
{
	int rc = 0, redux = 0;

	if (!task)
		return -EINVAL;
	if (atomic_load_explicit(&task->state, memory_order_relaxed) != PPH_TASK_MADE)
		return -EBUSY;
	if (!pph__rt.initialized)
		return pph__not_running("pph_task_submit");
	/* a variant for the caller's thread runs for a synchronous call
	 * only (wrappers.c, for_caller) */
	if (!task->by_caller && (rc = leave_caller_variants(task)) != 0)
		return rc;
	if (task->nbuffers) {
		unsigned i;

		/* not a partitioned handle (its blocks are used meanwhile) nor
		 * an unregistered one */
		for (i = 0; i < task->nbuffers && rc == 0; i++)
			rc = pph__data_usable(task->handles[i], "pph_task_submit");
		/* reductions (redux.c): accumulators, combines before other modes */
		/* (a prelisted gather keeps the place its scatter gave it) */
		if (rc == 0 && !task->prelisted &&
		    atomic_load_explicit(&pph__redux_used, memory_order_relaxed)) {
			rc = pph__redux_submit(task);
			redux = rc == 0;
		}
		if (rc)
			return rc;
		if ((rc = host_data_only(task)) != 0)
			goto refused;
		task->footprint = pph__task_footprint(task, &task->size);
	} else if (task->work > 0) {
		/* a call's work keys its history even without data */
		task->footprint = pph__task_footprint(task, &task->size);
	} else {
		task->footprint = PPH_FOOTPRINT_NO_DATA;
		task->size = 0;
	}
	if ((rc = submit(task)) == 0)
		return 0;
refused:
	if (redux) /* the task stays the caller's, to destroy or submit again */
		pph__redux_unsubmit(task);
	return rc;
}
