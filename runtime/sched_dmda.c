/*
 * dmda (deque model data aware): each task goes to the worker, and runs the
 * variant, with the earliest expected completion: when the worker's queue
 * drains, plus the variant's predicted run time there, plus the predicted
 * time to bring the task's data to the worker's memory.  Variants that are
 * not calibrated at the task's data size are tried first, on the least
 * loaded worker that can run them, until their history predicts them: one
 * after another, each for several runs in a row, so that its samples are
 * runs after its first of the process (which pays page faults, a
 * library's lazy start) and not only first runs, as a short run that
 * tried each variant once would give.
 * On a device, a variant's first run of the process also pays its setup
 * (its OpenCL program built: 30 ms and more), as last measured: a few
 * calls that gain less than that stay where they are.
 * A fork-join (OPENMP) variant is also given the size of its CPU team:
 * each size has its own history, and a team is available when its last
 * member is.
 *
 * Predictions err: a worker whose queue is empty takes the first task it
 * can run from the queue of a busy worker of its memory node, the one
 * expected to drain last, rather than sit idle while that worker works
 * through its queue.  From a worker between two tasks only when it holds
 * two or more: the next task of a chain, pushed by the worker as it
 * finished, stays where its data is cached.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "perfmodel.h"

/* Per worker: its ready queue and what it is expected to be busy with.
 * The estimates are read without a lock: a stale value only makes one
 * placement slightly worse. */
struct queue {
	_Alignas(PPH_CACHE_LINE) struct pph_readyq ready; /* no line shared between workers */
	_Atomic double queued_us;   /* predicted work waiting in the queue */
	_Atomic double running_end; /* expected end of the task running now */
	atomic_int busy;	    /* a task taken from a queue runs there */
};

static struct queue q[PPH_MAX_WORKERS];

/*
 * What dmda costs, for PEPPHER_STATS: one push in PPH_TIMED_EVERY is timed,
 * its choice and, for a task queued for a worker, the wait from its push
 * to its start there.  On the H100 machine's 16 cores the ODE solver at 32
 * had 1.9 us more between two tasks of one worker than the program with
 * one variant a codelet (a median of 3.6 us against 1.7), and where it
 * went (the choice, the hand-over) could not be told from a trace.
 */
#define PPH_TIMED_EVERY 16
static struct {
	atomic_ulong timed, waits; /* not every push: one cache line all
				    * pushing threads would write */
	_Atomic double choose_us, wait_us;
} cost;

/* Counts the runtime's starts: what a thread kept from a runtime shut down
 * since points at its freed models. */
static atomic_uint kept_epoch;

static void accumulate(_Atomic double *sum, double us)
{
	double old = atomic_load_explicit(sum, memory_order_relaxed);

	while (!atomic_compare_exchange_weak(sum, &old, old + us))
		;
}

static int dmda_init(void)
{
	unsigned i;

	atomic_store(&cost.timed, 0);
	atomic_store(&cost.waits, 0);
	atomic_store(&cost.choose_us, 0.0);
	atomic_store(&cost.wait_us, 0.0);
	atomic_fetch_add(&kept_epoch, 1);

	for (i = 0; i < PPH_MAX_WORKERS; i++) {
		pph__readyq_init(&q[i].ready);
		atomic_store(&q[i].queued_us, 0);
		atomic_store(&q[i].running_end, 0);
		atomic_store(&q[i].busy, 0);
	}
	return 0;
}

static void scratch_free_own(void);

static void dmda_deinit(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++)
		pph__readyq_deinit(&q[i].ready);
	scratch_free_own();
}

static void add_queued(struct queue *qu, double us)
{
	double old = atomic_load(&qu->queued_us);

	while (!atomic_compare_exchange_weak(&qu->queued_us, &old, fmax(0, old + us)))
		;
}

/* The later of two finite times: fmax is a call into libm, and this is
 * asked for every worker and team at every push. */
static inline double later(double a, double b)
{
	return a > b ? a : b;
}

/* When worker w is expected to be free, in microseconds. */
static double available_at(unsigned w, double now)
{
	return later(now, atomic_load(&q[w].running_end)) + atomic_load(&q[w].queued_us);
}

/* When every worker of the fork-join team of threads led by base is free,
 * from each worker's availability (avail, read once a choice). */
static double team_available_at(unsigned base, unsigned threads, const double *avail)
{
	unsigned i;
	double t = avail[base];

	for (i = base + 1; i < base + threads; i++)
		t = later(t, avail[i]);
	return t;
}

/* Is worker w idle: running nothing, nothing queued for it? */
static int idle(unsigned w)
{
	const struct pph_readyq *r = &q[w].ready;

	return !atomic_load(&q[w].busy) && !atomic_load_explicit(&r->incoming, memory_order_relaxed) &&
	       !atomic_load_explicit(&r->fifo.head, memory_order_relaxed);
}

/* A synchronous call's task for an idle CPU worker, with a variant of one
 * thread, goes back to the call's thread, which would only wait for it:
 * it runs it in the worker's place (pph__task_claim).  Other choices hand
 * it over, which costs the caller pph__rt.handover_us more. */
static int one_thread_on_cpu(const struct pph_task *t, unsigned w, unsigned impl, unsigned team)
{
	enum pph_arch a = t->cl->impls[impl].arch;

	return pph__rt.workers[w].arch == PPH_ARCH_CPU &&
	       (a == PPH_ARCH_CPU || (a == PPH_ARCH_OPENMP && team == 1));
}

static int given_back(const struct pph_task *t, unsigned w, unsigned impl, unsigned team)
{
	return one_thread_on_cpu(t, w, impl, team) && idle(w);
}

/* Variants whose predictions are kept per push (more are asked per worker). */
#define PPH_CHOICE_IMPLS 16

struct choice {
	int worker, impl;
	unsigned team; /* fork-join team size, 0 for other variants */
	double end, pred;
	unsigned row; /* the architecture, or PPH_ARCH_COUNT + the team size's index */
	int refresh;  /* the runner-up, run to refresh its history */
};

/*
 * A history is only as fresh as the runs it holds: a choice measured 3
 * times while the machine was busy (2 cores, one taken by another
 * process) keeps its slow mean for good once dmda stops running it, and
 * the choice preferred to it keeps being chosen while it slows down.  So
 * another choice (variant, architecture, team size), when predicted within
 * REFRESH_WITHIN of the chosen one and measured REFRESH_RATIO times less
 * often at this footprint, runs instead, the least measured first: about
 * one call in REFRESH_RATIO + 1 then goes to each such choice, costing at
 * most (REFRESH_WITHIN - 1) / REFRESH_RATIO, 1.6 %, each.  On 2 cores,
 * sgemm at 128 kept a team of 2 at 0.40 ms a call over `sgemm_blocked`,
 * measured 3 times at 0.42 ms, which took 0.23 in the CPU-only program;
 * and the ODE solver kept `ode_rhs_cpu` (138 us) over a team of 2
 * measured 5 times at 173 us (105 in the direct program): not the
 * runner-up, `ode_rhs_omp` alone on one thread (141 us) was.
 * Only histories: a footprint measured fewer than PPH_CALIBRATION_MIN
 * times is predicted by the choice's regression.  nw's 255 works, each
 * met once a run, had a team of 2 refreshed at 1 to 4 of them a run, at
 * 300 us a call where one thread took 80 (predicted 135 from the team's
 * regression): 5 % of the run.
 */
#define REFRESH_WITHIN 1.5
#define REFRESH_RATIO 32

#define NOT_ASKED (-2.0)

/* A number below n from the task's number: reservoir sampling of one among
 * n equal candidates (a splitmix64 finaliser). */
static unsigned draw(uint64_t seq, unsigned n)
{
	uint64_t z = seq + (uint64_t)n * 0x9e3779b97f4a7c15u;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return (unsigned)((z ^ (z >> 31)) % n);
}

/*
 * Prediction p of t's run time, standing on n samples, or -1: try it.  Once a
 * variant's regression holds, its model predicts a footprint measured
 * only once or twice from those runs, which suits a call's work
 * (pph_call_work: many works, each met once a run).  A size of data
 * recurs: measured fewer than 3 times, it is tried again, so that one run
 * (the last call of a process, slowed) does not decide for good.
 */
static double trusted(const struct pph_task *t, double p, unsigned long n)
{
	return p >= 0 && t->work <= 0 && n > 0 && n < PPH_CALIBRATION_MIN ? -1 : p;
}

/* t's predicted run time with variant impl, or -1; in *n its samples. */
static double predict(const struct pph_task *t, unsigned impl, enum pph_arch arch,
		      unsigned threads, unsigned long *n)
{
	double p = pph__perfmodel_predict_n(t->cl, impl, arch, threads, t->footprint, t->size, n);

	return trusted(t, p, *n);
}

static int same_choice(const struct choice *c, int impl, unsigned row)
{
	return c->impl == impl && c->row == row;
}

static unsigned long samples(const struct pph_task *t, const struct choice *c)
{
	enum pph_arch arch = c->team ? PPH_ARCH_CPU : (enum pph_arch)c->row;

	return pph__perfmodel_samples(t->cl, (unsigned)c->impl, arch, c->team ? c->team : 1,
				      t->footprint, t->size);
}

#define ROWS (PPH_ARCH_COUNT + PPH_MAX_TEAM_SIZES)

/* The choice whose history is to be refreshed (REFRESH_RATIO), or one of
 * impl -1: among the others, each at its earliest end (other_end, on
 * worker other_worker), the least measured. */
static struct choice stalest(const struct pph_task *t, const struct choice *best,
			     double other_end[ROWS][PPH_CHOICE_IMPLS],
			     int other_worker[ROWS][PPH_CHOICE_IMPLS],
			     double pred[ROWS][PPH_CHOICE_IMPLS],
			     unsigned long nsamples[ROWS][PPH_CHOICE_IMPLS], const unsigned *sizes,
			     unsigned nsizes, double now)
{
	struct choice c, pick = { -1, -1, 0, INFINITY, 0, 0, 1 };
	/* the samples each prediction stood on, not asked again: a lookup
	 * under the models' lock each */
	unsigned long nbest, n, fewest = 0;
	unsigned row, i;

	if (best->impl < 0)
		return pick;
	nbest = best->impl < PPH_CHOICE_IMPLS ? nsamples[best->row][best->impl] : samples(t, best);

	for (row = 0; row < PPH_ARCH_COUNT + nsizes; row++)
		for (i = 0; i < PPH_CHOICE_IMPLS && i < t->cl->nimpls; i++) {
			if (other_worker[row][i] < 0 || same_choice(best, (int)i, row) ||
			    other_end[row][i] - now > REFRESH_WITHIN * (best->end - now))
				continue;
			c = (struct choice){ other_worker[row][i], (int)i,
					     row < PPH_ARCH_COUNT ? 0 : sizes[row - PPH_ARCH_COUNT],
					     other_end[row][i], pred[row][i], row, 1 };
			n = nsamples[row][i];
			/* not a footprint the choice has not calibrated,
			 * which its regression predicts (a call's work,
			 * pph_call_work, each met once a run): a refresh
			 * there would teach that footprint alone, and be
			 * paid again at every other one */
			if (n < PPH_CALIBRATION_MIN)
				continue;
			if (n * REFRESH_RATIO <= nbest && (pick.impl < 0 || n < fewest)) {
				pick = c;
				fewest = n;
			}
		}
	return pick;
}

/*
 * Is a device variant not calibrated here, whose setup (its program's
 * build) this process has not paid, worth trying: only where a call takes
 * longer than that setup on the best calibrated choice, or where none is
 * calibrated.  Elsewhere it could not be chosen at a process's first call
 * (its setup is charged then), and trying it would pay the setup again in
 * every process until calibrated: the ODE solver's ode_sum, 15 us once a
 * run, paid a 25 ms OpenCL build in each of its first timed runs.  Once
 * this process has built the program, it is tried as any other.
 */
static int worth_its_setup(const struct choice *best, double setup, double now)
{
	return best->impl < 0 || setup < best->end - now;
}

/*
 * The predictions a thread asked for a codelet at a footprint, kept until
 * a variant among them records a sample (pph__perfmodel_ask_fresh): a
 * chain of calls runs one variant, and asking each other variant and team
 * size again under the models' lock at every push was most of the cost of
 * a choice among several (the ODE solver on 16 CPU workers, a CPU and an
 * OpenMP variant a component: asking 0.74 us a push, 0.23 with the CPU
 * variant alone).  Direct-mapped by codelet and footprint.
 */
#define PRED_KEPT 16	     /* (codelet, footprint) pairs a thread keeps */
#define PRED_KEPT_ASKS 16 /* a choice asking more is asked afresh each time */

struct pred_kept {
	const struct pph_codelet *cl; /* NULL: empty */
	uint32_t footprint;
	double size;
	unsigned epoch;	  /* the runtime's start it was asked in (kept_epoch) */
	uint32_t allowed; /* the variants allowed to the task, a bit each */
	unsigned n;
	struct pph_pm_ask asks[PRED_KEPT_ASKS];
	unsigned char row_of[PRED_KEPT_ASKS];
};

/*
 * What one choice works in: 18.7 KiB of tables, too much for the stack of
 * the thread that submits (an application thread made with a 32 KiB stack
 * faulted in choose).  Each thread that pushes gets its own, allocated at
 * its first push and freed when it ends (its struct pph_thread's, freed
 * with it): no lock on the hot path, which pushes from several threads at
 * once.  A choice makes no call that could push in turn, so a thread uses
 * one at a time.
 */
struct pph_dmda_scratch {
	double pred[ROWS][PPH_CHOICE_IMPLS], other_end[ROWS][PPH_CHOICE_IMPLS];
	unsigned long nsamples[ROWS][PPH_CHOICE_IMPLS];
	double setup_of[ROWS][PPH_CHOICE_IMPLS];
	unsigned ran_nodes[ROWS][PPH_CHOICE_IMPLS];
	int other_worker[ROWS][PPH_CHOICE_IMPLS];
	/* each worker's availability, read once: read per variant and per
	 * team, it was 96 reads with 16 CPU workers, each of a cache line
	 * another core writes (0.09 us of a choice's 0.6 here) */
	double avail_of[PPH_MAX_WORKERS];
	struct pph_pm_ask asks[ROWS * PPH_CHOICE_IMPLS];
	unsigned char row_of[ROWS * PPH_CHOICE_IMPLS];
	/* while tracing: each memory node's earliest end (note_why) */
	struct choice node_best[PPH_MAX_NODES];
	struct pred_kept kept[PRED_KEPT];
};

/* for a thread whose own could not be allocated: one at a time */
static struct pph_dmda_scratch spare_scratch;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

/* th's thread ends, or the library is unloaded (threads.c) */
void pph__dmda_scratch_free(struct pph_thread *th)
{
	free(th->scratch);
	th->scratch = NULL;
}

/* This thread's scratch, made at its first push; else the spare, locked
 * (released by put_scratch).  Apart, so that the common path saves no
 * registers. */
static __attribute__((noinline)) struct pph_dmda_scratch *new_scratch(void)
{
	struct pph_thread *th = pph__thread_get();

	if (th && (th->scratch = malloc(sizeof(*th->scratch)))) {
		memset(th->scratch->kept, 0, sizeof(th->scratch->kept));
		return th->scratch;
	}
	pthread_mutex_lock(&spare_lock);
	return &spare_scratch;
}

/* The shutting-down thread's, which may never end (other threads' are
 * freed as they end) */
static void scratch_free_own(void)
{
	if (pph__thread)
		pph__dmda_scratch_free(pph__thread);
}

static inline struct pph_dmda_scratch *get_scratch(void)
{
	struct pph_thread *th = pph__thread;

	return th && th->scratch ? th->scratch : new_scratch();
}

static inline void put_scratch(struct pph_dmda_scratch *s)
{
	if (s == &spare_scratch)
		pthread_mutex_unlock(&spare_lock);
}

/*
 * Every prediction the choice of t may need, under one lock of the
 * models: asked lazily, a choice among CPU, OpenMP (5 team sizes), OpenCL
 * and CUDA variants took the lock 9 times and more, each a cache line the
 * workers' records write too.  Rows as in choose; pred stays NOT_ASKED
 * where no worker could ask.
 */
static void ask_all(const struct pph_task *t, const unsigned *sizes, unsigned nsizes,
		    struct pph_dmda_scratch *s)
{
	const struct pph_codelet *cl = t->cl;
	struct pph_pm_ask *asks = s->asks;
	unsigned char *row_of = s->row_of;
	unsigned n = 0, i, a, k, r, epoch = atomic_load_explicit(&kept_epoch, memory_order_relaxed);
	uint32_t allowed = 0;
	struct pred_kept *kept = &s->kept[(((uintptr_t)cl >> 4) ^ t->footprint) % PRED_KEPT];

	for (i = 0; i < cl->nimpls && i < PPH_CHOICE_IMPLS; i++)
		if (pph__impl_allowed(t, i))
			allowed |= 1u << i;
	if (kept->cl == cl && kept->footprint == t->footprint && kept->size == t->size &&
	    kept->epoch == epoch && kept->allowed == allowed) {
		asks = kept->asks;
		row_of = kept->row_of;
		n = kept->n;
		for (k = 0; k < n && pph__perfmodel_ask_fresh(&asks[k]); k++)
			;
		if (k < n) /* one or more changed: those are asked again */
			pph__perfmodel_predict_all(cl, t->footprint, t->size, asks, n);
		goto answered;
	}
	for (i = 0; i < cl->nimpls && i < PPH_CHOICE_IMPLS; i++) {
		if (!(allowed >> i & 1u))
			continue;
		for (a = 0; a < PPH_ARCH_COUNT; a++) {
			int team = a == PPH_ARCH_CPU && cl->impls[i].arch == PPH_ARCH_OPENMP;

			if (!pph__rt.arch_workers[a] ||
			    !pph__arch_can_run((enum pph_arch)a, cl->impls[i].arch))
				continue;
			for (k = 0; k < (team ? nsizes : 1); k++) {
				asks[n] = (struct pph_pm_ask){ i, (enum pph_arch)a,
							       team ? sizes[k] : 1, 0, 0, 0, 0,
							       NULL, 0 };
				row_of[n++] = (unsigned char)(team ? PPH_ARCH_COUNT + k : a);
			}
		}
	}
	pph__perfmodel_predict_all(cl, t->footprint, t->size, asks, n);
	if (n <= PRED_KEPT_ASKS) {
		*kept = (struct pred_kept){ cl, t->footprint, t->size, epoch, allowed, n, { { 0 } },
					    { 0 } };
		memcpy(kept->asks, asks, n * sizeof(*asks));
		memcpy(kept->row_of, row_of, n);
	}
answered:
	for (k = 0; k < n; k++) {
		const struct pph_pm_ask *q = &asks[k];

		r = row_of[k];
		i = q->impl;
		s->nsamples[r][i] = q->samples;
		s->pred[r][i] = trusted(t, q->us, q->samples);
		s->setup_of[r][i] = q->setup_us;
		s->ran_nodes[r][i] = q->ran_nodes;
	}
}

/* What a run of the asked (row, i) on node pays before its first there in
 * this process (pph__perfmodel_setup_us). */
static double setup_on(const struct pph_task *t, unsigned i, const struct pph_worker *wk,
		       unsigned threads, unsigned row, double setup[][PPH_CHOICE_IMPLS],
		       unsigned ran_nodes[][PPH_CHOICE_IMPLS])
{
	if (i >= PPH_CHOICE_IMPLS || setup[row][i] < 0)
		return pph__perfmodel_setup_us(t->cl, i, wk->arch, threads, wk->node);
	return ran_nodes[row][i] >> wk->node & 1u ? 0 : setup[row][i];
}

/* A placement's expected wait, from its end, run and copies (rounding
 * off times since boot can make none a little below 0). */
static float wait_of(const struct choice *c, double copies, double now)
{
	return (float)later(c->end - now - c->pred - copies, 0);
}

/*
 * Why t goes where c says, for its slice in the trace (struct
 * pph_sched_why): c's kind, expected wait, run and copies, and the
 * earliest end on another memory node (node_best, copies in xfer).
 */
static void note_why(struct pph_task *t, const struct choice *c, const struct choice *best,
		     const struct choice *explore, const struct choice *node_best,
		     const double *xfer, double now)
{
	struct pph_sched_why *why = &t->sched_why;
	unsigned node = pph__rt.workers[c->worker].node, n;
	const struct choice *other = NULL;
	double copies = xfer[node] >= 0 ? xfer[node] : pph__transfer_estimate(t, node, 1);

	/* explored and setup-paying choices have no prediction: their end is
	 * when their worker is free */
	int predicted = c == best || c->refresh;

	why->reason = c == explore ? "exploring" :
		      c->refresh   ? "refreshing" :
		      c == best	   ? "fastest" :
				     "setup paid";
	why->run = predicted ? (float)c->pred : -1.0f;
	why->copies = (float)copies;
	why->wait = predicted ? wait_of(c, copies, now) : (float)(c->end - now);
	for (n = 0; n < pph__rt.nnodes; n++)
		if (n != node && node_best[n].worker >= 0 &&
		    (!other || node_best[n].end < other->end))
			other = &node_best[n];
	why->other_worker = other ? other->worker : -1;
	if (!other)
		return;
	n = pph__rt.workers[other->worker].node;
	why->other_impl = other->impl;
	why->other_run = (float)other->pred;
	why->other_copies = (float)xfer[n];
	why->other_wait = wait_of(other, xfer[n], now);
}

/*
 * The CPU worker on which a one-thread variant would end first: the one
 * free first, counting the hand-over to a worker that is not idle (see
 * choose_in); among equals the pushing worker.  Its run time and copies
 * are the same on every CPU worker, so a predicted one-thread choice is
 * weighed there alone: weighing it on each of 16 CPU workers, with each
 * other variant and team size, was most of what a choice among a CPU and
 * an OpenMP variant costs over one with a CPU variant alone.  -1: no CPU
 * worker.
 */
static int first_free_cpu(double handover, const double *avail_of)
{
	unsigned w;
	int first = -1;
	double first_end = INFINITY;

	for (w = 0; w < pph__rt.nworkers; w++) {
		double end;

		if (pph__rt.workers[w].arch != PPH_ARCH_CPU)
			continue;
		end = avail_of[w] + (handover > 0 && !idle(w) ? handover : 0);
		if (first < 0 || end < first_end ||
		    (end == first_end && &pph__rt.workers[w] == pph__current_worker)) {
			first = (int)w;
			first_end = end;
		}
	}
	return first;
}

/*
 * Try every (worker, variant) pair, and for a fork-join (OPENMP) variant
 * on a CPU worker every team size; an uncalibrated one wins outright: one
 * warmed up in this process first, then the least tried.
 * Predictions depend on the architecture and the team size, not the
 * worker: ask once each (rows PPH_ARCH_COUNT + k are team size k).
 */
static struct choice choose_in(struct pph_task *t, struct pph_dmda_scratch *s)
{
	const struct pph_codelet *cl = t->cl;
	struct choice best = { -1, -1, 0, INFINITY, 0, 0, 0 }, explore = best, costly = best,
		      refresh;
	double costly_setup = 0, setup;
	double now = pph__now_us();
	double (*pred)[PPH_CHOICE_IMPLS] = s->pred, (*other_end)[PPH_CHOICE_IMPLS] = s->other_end;
	unsigned long(*nsamples)[PPH_CHOICE_IMPLS] = s->nsamples, n_other;
	double (*setup_of)[PPH_CHOICE_IMPLS] = s->setup_of;
	unsigned(*ran_nodes)[PPH_CHOICE_IMPLS] = s->ran_nodes;
	int(*other_worker)[PPH_CHOICE_IMPLS] = s->other_worker;
	double xfer[PPH_MAX_NODES]; /* the data's copies to each node: asked once */
	double *avail_of = s->avail_of;
	struct choice *node_best = pph__trace_enabled() ? s->node_best : NULL, *pick;
	unsigned w, i, a, k, sizes[PPH_MAX_TEAM_SIZES], nsizes = pph__team_sizes(sizes);
	unsigned ntied = 0;
	int first_cpu;
	unsigned long tries = 0, tries_all = 0;
	int explore_warm = 0;
	/* a synchronous call's caller waits for a hand-over, not for a run
	 * given back to it */
	double handover = pph__task_claimable(t) ?
				  atomic_load_explicit(&pph__rt.handover_us, memory_order_relaxed) :
				  0;

	/* only the rows and variants this codelet uses: clearing the whole
	 * tables was a quarter of a choice's own time */
	for (a = 0; a < PPH_ARCH_COUNT + nsizes; a++)
		for (i = 0; i < PPH_CHOICE_IMPLS && i < cl->nimpls; i++) {
			pred[a][i] = NOT_ASKED;
			setup_of[a][i] = -1; /* not asked */
			other_worker[a][i] = -1;
		}
	ask_all(t, sizes, nsizes, s);
	for (a = 0; a < PPH_MAX_NODES; a++)
		xfer[a] = NOT_ASKED;
	for (w = 0; w < pph__rt.nworkers; w++)
		avail_of[w] = available_at(w, now);
	for (a = 0; node_best && a < pph__rt.nnodes; a++)
		node_best[a].worker = -1;
	first_cpu = first_free_cpu(handover, avail_of);
	for (w = 0; w < pph__rt.nworkers; w++) {
		const struct pph_worker *wk = &pph__rt.workers[w];
		/* read once: the variants on w are weighed alike, even should
		 * w go idle between two of them (a hand-over charged to one
		 * and not the other turned the choice under load) */
		int w_idle = handover > 0 && idle(w);

		for (i = 0; i < cl->nimpls; i++) {
			int team = wk->arch == PPH_ARCH_CPU &&
				   cl->impls[i].arch == PPH_ARCH_OPENMP;

			if (!pph__impl_allowed(t, i) ||
			    !pph__arch_can_run(wk->arch, cl->impls[i].arch))
				continue;
			for (k = 0; k < (team ? nsizes : 1); k++) {
				unsigned threads = team ? sizes[k] : 1;
				unsigned row = team ? PPH_ARCH_COUNT + k : wk->arch;
				double avail, p, end;

				/* a team of several threads is led by its first
				 * worker only: libgomp keeps a thread pool per
				 * leading thread, and the pool of the last team
				 * spins on the team's cores for milliseconds after
				 * it; one leader per team reuses that pool instead
				 * of starting a second beside the spinning one.
				 * Asked first: reading every member's queue for
				 * every worker and team size was 496 reads a call
				 * with 16 CPU workers, the scheduler's main cost */
				if (threads > 1 && !(wk->leads >> k & 1u))
					continue;
				/* a predicted one-thread choice ends first on
				 * the CPU worker free first (first_free_cpu) */
				if (threads == 1 && wk->arch == PPH_ARCH_CPU && (int)w != first_cpu &&
				    i < PPH_CHOICE_IMPLS && pred[row][i] >= 0)
					continue;
				avail = team ? team_available_at(pph__team_base(w, threads), threads,
								 avail_of) :
					       avail_of[w];
				if (i >= PPH_CHOICE_IMPLS)
					p = predict(t, i, wk->arch, threads, &n_other);
				else if ((p = pred[row][i]) == NOT_ASKED)
					p = pred[row][i] =
						predict(t, i, wk->arch, threads, &nsamples[row][i]);
				if (p < 0 && wk->node &&
				    (setup = setup_on(t, i, wk, threads, row, setup_of,
						      ran_nodes)) > 0) {
					/* see worth_its_setup */
					if (costly.impl < 0 || setup < costly_setup) {
						costly = (struct choice){ (int)w, (int)i, 0, avail, 0,
									  row, 0 };
						costly_setup = setup;
					}
					continue;
				}
				if (p < 0) {
					/* one this process has run here already
					 * (its next run is a sample, where a
					 * process's first pays one-time costs);
					 * then the least tried, here, then over
					 * every footprint, so that every variant
					 * gets tried over short runs; then the
					 * earliest available; among equals, one
					 * drawn by the task's number, so that
					 * simultaneous explorations spread over them */
					int warm;
					unsigned long all, n = pph__perfmodel_tries(
						cl, i, wk->arch, threads, t->footprint, t->size, &all,
						&warm);
					int fewer = n < tries || (n == tries && all < tries_all);

					if (explore.impl < 0 || warm > explore_warm ||
					    (warm == explore_warm &&
					     (fewer || (n == tries && all == tries_all &&
							avail < explore.end))))
						ntied = 0;
					else if (warm < explore_warm || n > tries || all > tries_all ||
						 avail > explore.end || draw(t->seq, ntied + 1) != 0)
						continue;
					ntied++;
					explore_warm = warm;
					tries = n;
					tries_all = all;
					explore = (struct choice){ (int)w, (int)i, team ? threads : 0,
								   avail, 0, row, 0 };
					continue;
				}
				/* a device pays its variant's setup (its program
				 * built) before the first run of the process there */
				if (wk->node)
					p += setup_on(t, i, wk, threads, row, setup_of, ran_nodes);
				if (xfer[wk->node] == NOT_ASKED)
					xfer[wk->node] = pph__transfer_estimate(t, wk->node, 1);
				end = avail + p + xfer[wk->node];
				if (handover > 0 && !(w_idle && one_thread_on_cpu(t, w, i, threads)))
					end += handover;
				/* the first pair is taken whatever its estimate: a
				 * choice is always made (a worker of -1 would index
				 * the queues), even should estimates be inf */
				/* among equals, the pushing worker: the task's
				 * data is likely in its cache (a chain) */
				if (best.impl < 0 || end < best.end ||
				    (end == best.end && wk == pph__current_worker))
					best = (struct choice){ (int)w, (int)i, team ? threads : 0,
								end, p, row, 0 };
				if (node_best && (node_best[wk->node].worker < 0 ||
						  end < node_best[wk->node].end))
					node_best[wk->node] = (struct choice){
						(int)w, (int)i, team ? threads : 0, end, p, row, 0
					};
				/* each choice's earliest end, for a refresh; among
				 * equals the pushing worker too, as for the best: the
				 * ODE solver's refreshes went to the first of two
				 * idle workers, not its chain's, which waited 19-37
				 * us to be woken for each and took the chain's data
				 * to its core */
				if (i < PPH_CHOICE_IMPLS &&
				    (other_worker[row][i] < 0 || end < other_end[row][i] ||
				     (end == other_end[row][i] && wk == pph__current_worker))) {
					other_end[row][i] = end;
					other_worker[row][i] = (int)w;
				}
			}
		}
	}
	if (explore.impl >= 0)
		pick = &explore;
	else if (costly.impl >= 0 && worth_its_setup(&best, costly_setup, now))
		pick = &costly;
	else {
		refresh = stalest(t, &best, other_end, other_worker, pred, nsamples, sizes,
				  nsizes, now);
		pick = refresh.impl >= 0 ? &refresh : &best;
	}
	if (node_best)
		note_why(t, pick, &best, &explore, node_best, xfer, now);
	return *pick;
}

static struct choice choose(struct pph_task *t)
{
	struct pph_dmda_scratch *s = get_scratch();
	struct choice c = choose_in(t, s);

	put_scratch(s);
	return c;
}

/* The workers a choice occupies: its team, or its worker alone. */
static unsigned members(unsigned w, unsigned team, unsigned *base)
{
	*base = team ? pph__team_base(w, team) : w;
	return team ? team : 1;
}

/* The members of worker w's team for t: a choice occupies the same
 * workers whichever of them runs it. */
static unsigned team_of(unsigned w, const struct pph_task *t, unsigned *base)
{
	return members(w, t->sched_team, base);
}

static void nudge_idle(unsigned v);

/* Does worker w's queue hold a task? */
static int holds_task(unsigned w)
{
	return atomic_load(&q[w].ready.incoming) || atomic_load(&q[w].ready.fifo.head);
}

/* t, queued for worker owner, starts on worker runner (owner, or a worker
 * that took it from owner's queue): its prediction moves from the owner's
 * backlog to what runs on the runner now. */
static void started(unsigned runner, unsigned owner, struct pph_task *t)
{
	unsigned base, n, i;
	double start;

	n = team_of(owner, t, &base);
	for (i = base; i < base + n; i++)
		add_queued(&q[i], -t->sched_pred);
	/* a team starts when its last member is free */
	n = team_of(runner, t, &base);
	start = pph__now_us();
	if (t->sched_pushed_us > 0) {
		accumulate(&cost.wait_us, start - t->sched_pushed_us);
		atomic_fetch_add_explicit(&cost.waits, 1, memory_order_relaxed);
		t->sched_pushed_us = 0;
	}
	for (i = base; i < base + n; i++)
		if (i != runner)
			start = fmax(start, atomic_load(&q[i].running_end));
	for (i = base; i < base + n; i++) {
		atomic_store(&q[i].running_end, start + t->sched_pred);
		atomic_store(&q[i].busy, 1);
	}
	/* busy now, then look at the queue (a push stores, then reads
	 * busy): a task pushed after this worker took t but before it was
	 * busy found it between two tasks holding one, nudged no one, and
	 * waited behind t while an idle neighbour slept (two tasks that
	 * must run at once waited for good) */
	if (runner == owner && holds_task(runner))
		nudge_idle(runner);
}

/* t's variant returned on w: w is free from now on, however long the
 * prediction said (a task that ran faster left w looking busy). */
static void dmda_ran(struct pph_worker *w, const struct pph_task *t)
{
	unsigned base, n = team_of(w->id, t, &base), i;
	double now = pph__now_us();

	for (i = base; i < base + n; i++) {
		atomic_store(&q[i].running_end, now);
		atomic_store(&q[i].busy, 0);
	}
}

/* Can w take tasks from v's queue: a worker of the same memory node, so
 * the data moves between caches at most. */
static int neighbour(const struct pph_worker *w, unsigned v)
{
	return v != w->id && pph__rt.workers[v].node == w->node &&
	       pph__rt.workers[v].arch == w->arch;
}

/* Can a worker of arch take from v's queue: v runs a task, or holds two or
 * more it could take itself (it keeps the next).  Not from a worker
 * between two tasks holding one: the next task of a chain it pushed as it
 * finished, whose data is in its cache. */
static int stealable(unsigned v, enum pph_arch arch)
{
	return atomic_load(&q[v].busy) ||
	       atomic_load_explicit(&q[v].ready.runnable[arch], memory_order_relaxed) >= 2;
}

/* The busy neighbour of w with queued tasks expected to drain last, or -1. */
static int latest_neighbour(const struct pph_worker *w)
{
	unsigned v;
	int victim = -1;
	double now = pph__now_us(), last = -INFINITY;

	for (v = 0; v < pph__rt.nworkers; v++) {
		const struct pph_readyq *r = &q[v].ready;

		if (!neighbour(w, v) || !stealable(v, w->arch) ||
		    (!atomic_load_explicit(&r->incoming, memory_order_relaxed) &&
		     !atomic_load_explicit(&r->fifo.head, memory_order_relaxed)) ||
		    available_at(v, now) <= last)
			continue;
		victim = (int)v;
		last = available_at(v, now);
	}
	return victim;
}

/* A task for idle w from a busy neighbour's queue: from the one expected
 * to drain last, else from any. */
static struct pph_task *steal(struct pph_worker *w)
{
	int victim = latest_neighbour(w);
	unsigned n = pph__rt.nworkers, k;

	for (k = 0; victim >= 0 && k < n; k++) {
		unsigned owner = ((unsigned)victim + k) % n;
		struct pph_task *t;

		if (!neighbour(w, owner) || !stealable(owner, w->arch))
			continue;
		if ((t = pph__readyq_try_pop(&q[owner].ready, w->arch))) {
			started(w->id, owner, t);
			return t;
		}
	}
	return NULL;
}

/* Wake an idle neighbour of worker v, whose queue just got t while v is
 * busy or has more than one task: should v stay busy longer than
 * predicted, the neighbour takes it. */
static void nudge_idle(unsigned v)
{
	const struct pph_worker *wv = &pph__rt.workers[v];
	unsigned i;

	if (!stealable(v, wv->arch))
		return;
	for (i = 0; i < pph__rt.nworkers; i++)
		if (neighbour(wv, i) && !atomic_load(&q[i].busy))
			pph__readyq_nudge(&q[i].ready);
}

static void dmda_variant_disabled(void);

static void dmda_push(struct pph_task *t)
{
	/* drawn by the task's number (a Weyl sequence: timed pushes are
	 * PPH_TIMED_EVERY apart on average, never regularly, so that a
	 * program's own period does not pick the same call each time: every
	 * 16th push of the ODE solver, whose steps are 17 calls, timed 0.28 us
	 * or 0.75 a choice depending on where the count started); not the
	 * first, which finds the models cold */
	int timed = (uint32_t)((t->seq + 1) * 2654435769u) < UINT32_MAX / PPH_TIMED_EVERY;
	double t0 = timed ? pph__now_us() : 0;
	/* a variant disabled while this push chose (see below) */
	unsigned generation = atomic_load(&pph__rt.generation);
	struct choice c = choose(t);
	unsigned base, n = members((unsigned)c.worker, c.team, &base), i;

	if (timed) {
		accumulate(&cost.choose_us, pph__now_us() - t0);
		atomic_fetch_add_explicit(&cost.timed, 1, memory_order_relaxed);
	}

	/* submit checked that some worker can run the task */
	t->sched_impl = c.impl;
	t->sched_pred = c.pred;
	t->sched_team = c.team;
	t->sched_refresh = c.refresh;
	atomic_store_explicit(&t->sleep_wait, c.team > 1 || c.pred >= PPH_YIELD_WAIT_US,
			      memory_order_relaxed);
	t->handed_idle = pph__rt.workers[c.worker].node == 0;
	for (i = base; i < base + n; i++) {
		t->handed_idle &= idle(i);
		add_queued(&q[i], c.pred);
	}
	if (pph__task_claimable(t) &&
	    given_back(t, (unsigned)c.worker, (unsigned)c.impl, c.team)) {
		started((unsigned)c.worker, (unsigned)c.worker, t);
		pph__task_claim(t, &pph__rt.workers[c.worker]);
		return;
	}
	/* the data starts moving now, while the worker finishes what it runs;
	 * not in a burst of pushes (a split call's blocks): there the copy
	 * held up the pushes after it, the CPU blocks of spmv_ell's split on
	 * the H100 machine went out 62 us a block, and the device's worker
	 * copies as soon as the burst's wakes are released */
	if (!pph__wakes_held())
		pph__task_prefetch(t, pph__rt.workers[c.worker].node);
	t->sched_pushed_us = timed ? pph__now_us() : 0;
	pph__readyq_push(&q[c.worker].ready, t);
	nudge_idle((unsigned)c.worker);
	/* A variant disabled after the choice, whose sweep of the queues
	 * (dmda_variant_disabled) ran before this push, left t in a queue no
	 * worker would take it from: the OpenCL worker's, once its kernel
	 * failed, t allowed the CPU variant alone; the program waited for
	 * good (test_data under ThreadSanitizer, calls made ready by another
	 * worker as the first of them failed).  A disable after this load
	 * sweeps after the push, and finds t. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load(&pph__rt.generation) != generation &&
	    atomic_load_explicit(&pph__any_disabled, memory_order_relaxed))
		dmda_variant_disabled();
}

static struct pph_task *dmda_pop(struct pph_worker *w)
{
	struct pph_readyq *own = &q[w->id].ready;
	struct pph_task *t;

	for (;;) {
		if ((t = pph__readyq_try_pop(own, w->arch))) {
			started(w->id, w->id, t);
			return t;
		}
		if ((t = steal(w)))
			return t;
		/* until its own queue has work, a nudge, or the end */
		if ((t = pph__readyq_pop(own, w->arch))) {
			started(w->id, w->id, t);
			return t;
		}
		if (pph__readyq_stopped(own))
			return NULL;
	}
}

/*
 * A worker waiting inside a variant: its own queue first, then the
 * others'.  A nested call's task may sit in the queue of a worker that is
 * itself waiting for a task queued here (two workers, two nested calls):
 * each waiting worker drains its queue, and takes others' work too.
 */
static struct pph_task *dmda_try_pop(struct pph_worker *w)
{
	unsigned n = pph__rt.nworkers, k;

	for (k = 0; k < n; k++) {
		unsigned owner = (w->id + k) % n;
		struct pph_task *t = pph__readyq_try_pop(&q[owner].ready, w->arch);

		if (t) {
			started(w->id, owner, t);
			return t;
		}
	}
	return NULL;
}

/* A variant was disabled: a task queued for a worker that has no other
 * variant for it (the OpenCL worker's queued calls, once their kernel
 * failed to build) would wait there for good, no other kind of worker
 * taking from that queue.  Each is placed again, its prediction taken
 * off its worker's backlog; one no variant is left for fails. */
static void dmda_variant_disabled(void)
{
	unsigned w, base, n, i;
	struct pph_task *t, *next;

	for (w = 0; w < pph__rt.nworkers; w++)
		for (t = pph__readyq_take_stranded(&q[w].ready, 1u << pph__rt.workers[w].arch); t;
		     t = next) {
			next = t->next;
			n = team_of(w, t, &base);
			for (i = base; i < base + n; i++)
				add_queued(&q[i], -t->sched_pred);
			pph__task_place_again(t);
		}
}

static void dmda_wake_all(void)
{
	unsigned i;

	for (i = 0; i < PPH_MAX_WORKERS; i++)
		pph__readyq_stop(&q[i].ready);
}

static void dmda_print_stats(FILE *fp)
{
	unsigned long timed = atomic_load(&cost.timed), waits = atomic_load(&cost.waits);

	if (!timed)
		return;
	fprintf(fp, "scheduler dmda: a choice %.2f us", atomic_load(&cost.choose_us) / (double)timed);
	if (waits)
		fprintf(fp, "; a queued task started %.1f us after its push",
			atomic_load(&cost.wait_us) / (double)waits);
	fprintf(fp, " (%lu pushes timed, one in %d)\n", timed, PPH_TIMED_EVERY);
}

const struct pph_sched_policy pph__sched_dmda = {
	"dmda", "earliest expected completion from performance models (default)",
	dmda_init, dmda_deinit, dmda_push, dmda_pop, dmda_try_pop, dmda_wake_all, dmda_ran,
	dmda_print_stats, dmda_variant_disabled,
};
