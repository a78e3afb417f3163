/* The calls generated entry wrappers make (<peppher/wrappers.h>). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <peppher/wrappers.h>

#include "internal.h"
#include "perfmodel.h"
#include "failures.h"
#include "split_args.h"

/* What a split call's block adds to an asynchronous call. */
struct block {
	unsigned fallback_mask; /* the call's variants (pph_task.fallback_mask) */
	void (*done)(void *);	/* run when the block ran, with done_data; or NULL */
	void *done_data;
	struct pph_task *task;	/* out: the block, kept to be waited for */
	struct pph_task *after; /* an asynchronous call's scatter, or NULL */
	struct pph_successor after_edge, gather_edge; /* pph__deps_add's */
};

/*
 * Tell the smart containers among a call's handles that it was submitted
 * (containers.c): a host read that raced with pph_container_use, before
 * the call's task could be waited for, must not leave the host copy
 * marked valid past it.
 */
static inline void containers_called(unsigned n, const pph_data_handle *handles,
				     const enum pph_access *modes)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (handles[i] && handles[i]->container)
			pph__container_called(handles[i]->container, modes[i]);
}

/*
 * The variants of a call of cl that run on its caller's thread
 * (PPH_IMPL_CALLER_THREAD) where none of the others it allows can run now
 * (no worker for them, disabled): the call runs one of those, on this
 * thread; else 0, and the others run it (submit_checked leaves the
 * caller's variants to calls).
 */
static unsigned for_caller(const struct pph_codelet *cl, unsigned impl_mask)
{
	unsigned mine = pph__caller_variants(cl) & impl_mask;

	if (!mine || pph__variants_runnable(cl, impl_mask & ~mine))
		return 0;
	return mine;
}

static int call(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		const pph_data_handle *handles, const enum pph_access *modes,
		const void *arg, size_t arg_size, int sync, struct block *b)
{
	struct pph_task *task = NULL;
	unsigned i;
	int rc, entered;
	/* the caller's errno, which the variant starts with; a synchronous
	 * call returns with the variant's, any other with this */
	int caller_errno = errno, ran_errno = caller_errno;
	/* what the caller asked: an asynchronous call run on its thread is
	 * made synchronous, and leaves its errno as one */
	int asked_sync = sync;
	unsigned mine;

	if (!cl || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	if (!pph__rt.initialized)
		return pph__not_running(cl->name ? cl->name : "?");
	if (!b && (mine = for_caller(cl, impl_mask)) != 0) {
		impl_mask = mine;
		sync = 1;
	} else {
		mine = 0;
	}
	pph__here_left(__builtin_frame_address(0));
	/* the whole call, task made to task destroyed, before pph_shutdown
	 * frees the task cache and the nodes */
	if ((entered = pph__enter()) < 0)
		return pph__shutting_down();
	if (!pph__rt.initialized) { /* stopped since */
		rc = pph__not_running(cl->name ? cl->name : "?");
		goto out;
	}
	task = pph_task_create(cl);
	rc = task ? 0 : -ENOMEM;
	if (task) {
		task->by_call = 1;
		task->by_caller = mine != 0;
		task->errno_value = caller_errno;
	}

	/* a mask that allows none of a codelet's variants, or a codelet
	 * without variants */
	if (rc == 0 && pph_task_set_impl_mask(task, impl_mask) != 0 &&
	    (rc = pph__codelet_check(cl)) == 0)
		rc = -ENODEV;
	for (i = 0; rc == 0 && i < nbuffers; i++)
		rc = pph_task_add_buffer(task, handles[i], modes[i]);
	if (rc == 0)
		rc = pph_task_set_arg(task, arg, arg_size);
	if (rc == 0 && !sync && !b)
		pph_task_set_detached(task, 1);
	if (rc == 0 && b) {
		task->fallback_mask = b->fallback_mask;
		if (b->done)
			pph_task_set_callback(task, b->done, b->done_data);
		if (b->after) { /* added when listed, past every refusal */
			pph__task_share(task);
			task->after = b->after;
			task->after_node = &b->after_edge;
		}
	}
	/* a synchronous call's wait fails when no variant could run it */
	if (rc == 0)
		rc = sync ? pph__task_submit_and_wait(task) : pph_task_submit(task);
	if (rc == 0)
		containers_called(nbuffers, handles, modes);
	if (rc == 0 && b)
		b->task = task;
	else if (sync || rc != 0) {
		if (rc == 0 && asked_sync) {
			ran_errno = task->errno_value;
			pph_fpenv_raise(&task->fpenv);
		}
		pph_task_destroy(task);
	}
out:
	if (entered > 0)
		pph__leave();
	errno = ran_errno;
	return rc;
}

int pph_call_sync(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		  const pph_data_handle *handles, const enum pph_access *modes,
		  const void *arg, size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 1, NULL);
}

int pph_call_async(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		   const pph_data_handle *handles, const enum pph_access *modes,
		   const void *arg, size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 0, NULL);
}

/* The common number of parts of the partitioned buffers, or -EINVAL. */
static int part_count(unsigned nbuffers, const int *parts)
{
	int n = pph__split_parts(nbuffers, parts);

	if (n == 0) /* the runtime chooses: one block per worker */
		n = (int)pph__rt.nworkers;
	return n;
}

/* Length of a partitioned buffer along its split: elements or rows. */
static size_t split_length(const struct pph_data *d)
{
	return d->layout == PPH_LAYOUT_VECTOR ? d->host.iface.vector.n : d->host.iface.matrix.rows;
}

/* A handle shaped as d's block of len (elements or rows), over no memory:
 * for footprints only. */
static int shape_register(const struct pph_data *d, size_t len, pph_data_handle *h)
{
	const union pph_iface *p = &d->host.iface;

	return d->layout == PPH_LAYOUT_VECTOR ?
		       pph_vector_register(h, NULL, len, p->vector.elemsize) :
		       pph_matrix_register(h, NULL, len, p->matrix.cols, p->matrix.cols,
					   p->matrix.elemsize);
}

/* The memory node of the first worker of arch (the host's for the CPU). */
static unsigned arch_node(enum pph_arch arch)
{
	unsigned w;

	for (w = 0; w < pph__rt.nworkers; w++)
		if (pph__rt.workers[w].arch == arch)
			return pph__rt.workers[w].node;
	return 0;
}

/* The variants of cl in impl_mask that run on workers of arch: the mask of
 * the blocks given to that kind of worker. */
static unsigned arch_mask(const struct pph_codelet *cl, unsigned impl_mask, enum pph_arch arch)
{
	unsigned i, m = 0;

	for (i = 0; i < cl->nimpls && i < 32; i++)
		if ((impl_mask >> i & 1u) && cl->impls[i].arch == arch &&
		    !(pph__impl_disabled_mask(cl) >> i & 1u))
			m |= 1u << i;
	return m;
}

/*
 * A call split into blocks for one kind of worker (the CPU workers alone,
 * say, where the program has no variant for the devices present).
 * `auto` is one block per worker that can run one of the call's variants,
 * not per worker: 17 blocks for 16 CPU workers and an OpenCL worker left
 * one CPU worker two blocks, the call twice a block's time.  Where the
 * blocks are as many as the CPU workers, they run the single-thread CPU
 * variants, if the call has one, as the blocks split among kinds do: on
 * the H100 machine spmv_ell's 17 blocks each ran on an OpenMP team of 8,
 * each team holding the cores of the blocks queued behind it, and the
 * call took 2-3 times the OpenMP program's whole call.  Returns the block
 * count, and the variants the blocks may run in *mask.
 */
static unsigned one_kind_blocks(const struct pph_codelet *cl, unsigned n, int per_worker,
				unsigned *mask)
{
	unsigned a, i, able = 0, single = arch_mask(cl, *mask, PPH_ARCH_CPU);

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		for (i = 0; pph__rt.arch_workers[a] && i < cl->nimpls && i < 32; i++)
			if ((*mask >> i & 1u) &&
			    pph__arch_can_run((enum pph_arch)a, cl->impls[i].arch)) {
				able += pph__rt.arch_workers[a];
				break;
			}
	if (per_worker && able)
		n = able;
	if (single && n >= pph__rt.arch_workers[PPH_ARCH_CPU])
		*mask &= ~arch_mask(cl, *mask, PPH_ARCH_OPENMP);
	return n;
}

/*
 * What the models predict of a block of len (elements or rows) on a worker
 * of arch at memory node: for the best variant of mask (or variant impl,
 * when impl >= 0) its time (history at that block shape, else the
 * regression: negative while some variant of mask still needs calibration
 * there) and its regression at the block's size, and the copies to a
 * device of the block and of what it writes home (unpartitioning gathers
 * the blocks home), and on a device what its first run in this process
 * would pay first (its program's build: dmda charges it too).  A whole
 * buffer every block reads is counted with each block.  Returns the
 * variant, or -1.
 */
struct block_estimate {
	double us, reg, copies, setup;
};

static int block_estimate(const struct pph_codelet *cl, unsigned mask, int impl, unsigned node,
			  unsigned nbuffers, const pph_data_handle *handles,
			  const enum pph_access *modes, const int *parts, size_t len,
			  struct block_estimate *e)
{
	pph_data_handle shape[PPH_MAX_BUFFERS] = { NULL };
	struct pph_task *t = pph_task_create(cl);
	double size;
	uint32_t fp;
	unsigned i;
	int rc = t ? 0 : -ENOMEM, best = impl;

	e->us = -1;
	for (i = 0; rc == 0 && i < nbuffers; i++)
		if (parts[i] >= 0 && (rc = shape_register(handles[i], len, &shape[i])) == 0) {
			pph_data_set_host_reads(shape[i], 1);
			rc = pph_task_add_buffer(t, shape[i], modes[i]);
		} else if (rc == 0) {
			rc = pph_task_add_buffer(t, handles[i], modes[i]);
		}
	if (rc == 0) {
		fp = pph__task_footprint(t, &size);
		for (i = 0; impl < 0 && i < cl->nimpls && i < 32; i++) {
			double us;

			if (!(mask >> i & 1u))
				continue;
			us = pph__perfmodel_predict(cl, i, cl->impls[i].arch, 1, fp, size);
			if (us < 0) {
				best = -1;
				break;
			}
			if (best < 0 || us < e->us) {
				best = (int)i;
				e->us = us;
			}
		}
		if (best >= 0) {
			e->reg = pph__perfmodel_regression(cl, (unsigned)best, cl->impls[best].arch, 1,
							   size);
			e->copies = pph__transfer_estimate(t, node, 0);
			e->setup = node ? pph__perfmodel_setup_us(cl, (unsigned)best,
								  cl->impls[best].arch, 1, node) :
					  0;
		}
	}
	pph_task_destroy(t);
	for (i = 0; i < nbuffers; i++)
		pph_data_unregister(shape[i]);
	return rc == 0 ? best : -1;
}

/*
 * A kind of worker's block as a line: a block of len rows takes about
 * fixed + len * per_row microseconds.  The fixed part is what a block
 * costs whatever its length: a device's launch and the copy of a vector
 * every block reads whole.  Through the time at len, on a device with the
 * slope of the regression's chord between len and 2 len where it grows,
 * and with the copies' chord.  On the CPU the time at len is all per row:
 * a CPU variant has no launch to pay, and its regression is not trusted
 * beyond twice the sizes it ran at (see perfmodel.c), which a chord to
 * 2 len would need: extrapolated from SpMV blocks up to 12 MB, it
 * predicted a block of 19 MB at 10.5 ms where one thread takes about 3.
 * Returns -1 while a variant of the kind needs calibration.
 */
struct block_line {
	double fixed, per_row;
};

static int block_line(const struct pph_codelet *cl, unsigned mask, unsigned node,
		      unsigned nbuffers, const pph_data_handle *handles,
		      const enum pph_access *modes, const int *parts, size_t len,
		      struct block_line *l)
{
	struct block_estimate e1, e2;
	int impl = block_estimate(cl, mask, -1, node, nbuffers, handles, modes, parts, len, &e1);
	double slope, copy_slope;

	if (impl < 0 ||
	    block_estimate(cl, mask, impl, node, nbuffers, handles, modes, parts, 2 * len, &e2) < 0)
		return -1;
	/* at most the time at len, all per row: fitted through few noisy
	 * sizes, PoCL's 30 us kernel had chords of 0.03 to 52 us an element */
	slope = e1.us / (double)len;
	if (node && e1.reg > 0 && e2.reg > e1.reg && (e2.reg - e1.reg) / (double)len < slope)
		slope = (e2.reg - e1.reg) / (double)len;
	copy_slope = e2.copies > e1.copies ? (e2.copies - e1.copies) / (double)len : 0;
	l->per_row = slope + copy_slope;
	l->fixed = e1.us - slope * (double)len + fmax(0, e1.copies - copy_slope * (double)len) +
		   e1.setup;
	if (l->per_row < 1e-9)
		l->per_row = 1e-9;
	return 0;
}

/* The blocks of each kind in set (bit a: kinds[a]) when the n blocks go
 * to those kinds: in proportion to their workers, at least one each; for
 * n 0 (partition="auto"), one per worker of those kinds.  Returns the
 * count of blocks. */
static unsigned blocks_of(unsigned set, const unsigned *workers, unsigned n, unsigned *nblocks)
{
	unsigned a, given = 0, kinds = 0, sum = 0;

	for (a = 0; a < 3; a++)
		if (set >> a & 1u) {
			kinds++;
			sum += workers[a];
		}
	if (n == 0) {
		for (a = 0; a < 3; a++)
			nblocks[a] = set >> a & 1u ? workers[a] : 0;
		return sum;
	}
	for (a = 0; a < 3; a++) {
		nblocks[a] = set >> a & 1u ? 1 + (n - kinds) * workers[a] / sum : 0;
		given += nblocks[a];
	}
	for (a = 0; given < n; a = (a + 1) % 3)
		if (set >> a & 1u) {
			nblocks[a]++;
			given++;
		}
	return n;
}

/*
 * The call's thread submits its blocks one after another, each a task and a
 * choice among the workers, so a block cannot start before those submitted
 * ahead of it: on the H100 machine's 16 CPU workers spmv_ell's CPU blocks
 * went out slower than the first ones ran (at 100,000 x 8 workers 0 and 1
 * ran 19 and 18 blocks over 10 calls, workers 14 and 15 one each).  Counted
 * as lateness, that delay moved rows from the CPU workers to the device,
 * whose copies then made the call slower still.  So the split counts it:
 * a moving mean of a block's submission (block_submit_us, in this
 * process), and each kind's workers starting after the blocks submitted
 * before theirs.  The devices' blocks go first: their copies and launch
 * take longest before their rows start.  Most of that delay was the
 * workers the first blocks woke taking the call's thread's core (121-125
 * us a block there, 20-220 here), then the device block's copy made as it
 * was queued: the wakes are held until every block is queued
 * (pph__wakes_hold), the device's worker copies once woken, and a block
 * now takes 3-7 us there, 5-8 here.
 */
static const unsigned submit_order[3] = { 2, 1, 0 }; /* CUDA, OpenCL, CPU */
static _Atomic double block_submit_us;

double pph__split_submit_us(void)
{
	return atomic_load_explicit(&block_submit_us, memory_order_relaxed);
}

void pph__split_set_submit_us(double us)
{
	atomic_store_explicit(&block_submit_us, us, memory_order_relaxed);
}

static void submitted(unsigned blocks, double us)
{
	double old = atomic_load_explicit(&block_submit_us, memory_order_relaxed), per = us / blocks;

	atomic_store_explicit(&block_submit_us, old > 0 ? old + (per - old) / 4 : per,
			      memory_order_relaxed);
}

/*
 * The end of a call whose blocks go to the kinds in set, every kind's
 * workers ending together at T: kind a runs its nblocks on lanes (its
 * workers, at most its blocks), a lane paying each of its blocks' fixed
 * part and its rows' time, so that the rows of all lanes, the sum of
 * lanes (T - fixed') / per_row, make the call.  Fills each kind's share
 * of the rows (fractions); INFINITY when some block would get no row, or
 * some kind less than half a step of rows (see hybrid_split).
 */
static double split_end(unsigned set, const struct block_line *line, const unsigned *workers,
			unsigned *n, size_t total, size_t step, unsigned *nblocks, double *share)
{
	double fixed[3] = { 0 }, lanes[3] = { 0 }, num = (double)total, den = 0, end, rows = 0;
	double submit = atomic_load_explicit(&block_submit_us, memory_order_relaxed);
	unsigned a, o, ahead = 0;

	*n = blocks_of(set, workers, *n, nblocks);
	for (o = 0; o < 3; o++) {
		unsigned l;

		a = submit_order[o];
		l = nblocks[a] < workers[a] ? nblocks[a] : workers[a];
		if (!nblocks[a])
			continue;
		lanes[a] = l;
		/* the blocks a lane runs one after the other, the last lane
		 * starting once its first block is submitted */
		fixed[a] = line[a].fixed * ((nblocks[a] + l - 1) / l) + (ahead + l - 1) * submit;
		ahead += nblocks[a];
		num += lanes[a] * fixed[a] / line[a].per_row;
		den += lanes[a] / line[a].per_row;
	}
	end = num / den;
	for (a = 0; a < 3; a++) {
		share[a] = nblocks[a] ? lanes[a] * (end - fixed[a]) / line[a].per_row : 0;
		if (nblocks[a] && (share[a] < nblocks[a] || share[a] < 0.5 * (double)step))
			return INFINITY;
		rows += share[a];
	}
	for (a = 0; a < 3; a++)
		share[a] /= rows;
	return end;
}

/*
 * How late each kind's blocks of a codelet's split calls ended against the
 * end the split predicted, in this process (a moving mean, half a call's
 * weight; 0 when on time or early): the models time each block as if it
 * ran alone, and do not see what running at once costs.  On PoCL here a
 * device block shares the two cores with the CPU workers' blocks, and each
 * ended milliseconds late; a driver thread that spins while its GPU works
 * would take a CPU worker's core the same way.  The split adds it to the
 * kind's fixed part, so a kind that ends late gets fewer rows, or none.
 * Added, not a factor: a late device is mostly late by a wait of its own,
 * and a factor would also multiply its predicted copies.
 */
#define SPLIT_CODELETS 32

static struct {
	const struct pph_codelet *cl;
	double late_us[3];
	/* for PEPPHER_STATS: the calls sized by kind, and each kind's rows */
	unsigned long calls;
	double rows[3];
} split_seen[SPLIT_CODELETS];
static unsigned split_nseen;
static pthread_mutex_t split_lock = PTHREAD_MUTEX_INITIALIZER;

/* cl's slot, a new one (the oldest reused) when make; -1 if none.  Locked. */
static int split_slot(const struct pph_codelet *cl, int make)
{
	unsigned i, a;

	for (i = 0; i < split_nseen && i < SPLIT_CODELETS; i++)
		if (split_seen[i].cl == cl)
			return (int)i;
	if (!make)
		return -1;
	i = split_nseen++ % SPLIT_CODELETS;
	split_seen[i].cl = cl;
	split_seen[i].calls = 0;
	for (a = 0; a < 3; a++)
		split_seen[i].late_us[a] = split_seen[i].rows[a] = 0;
	return (int)i;
}

/* A call of cl sized by kind: its n blocks, of sizes, went to kind_of. */
static void split_counted(const struct pph_codelet *cl, unsigned n, const size_t *sizes,
			  const unsigned char *kind_of)
{
	int i;
	unsigned k;

	pthread_mutex_lock(&split_lock);
	i = split_slot(cl, 1);
	split_seen[i].calls++;
	for (k = 0; k < n; k++)
		split_seen[i].rows[kind_of[k]] += (double)sizes[k];
	pthread_mutex_unlock(&split_lock);
}

void pph__split_print_stats(FILE *fp)
{
	static const char *const names[3] = { "CPU", "OpenCL", "CUDA" };
	unsigned i, a;

	pthread_mutex_lock(&split_lock);
	for (i = 0; i < split_nseen && i < SPLIT_CODELETS; i++) {
		double all = 0;

		if (!split_seen[i].calls)
			continue;
		for (a = 0; a < 3; a++)
			all += split_seen[i].rows[a];
		fprintf(fp, "split %s: %lu calls; rows", split_seen[i].cl->name,
			split_seen[i].calls);
		for (a = 0; a < 3; a++)
			if (split_seen[i].rows[a] > 0)
				fprintf(fp, " %s %.0f %%", names[a],
					100.0 * split_seen[i].rows[a] / all);
		for (a = 0; a < 3; a++)
			if (split_seen[i].late_us[a] > 0)
				fprintf(fp, "; %s %.0f us late now", names[a],
					split_seen[i].late_us[a]);
		fprintf(fp, "\n");
	}
	pthread_mutex_unlock(&split_lock);
	if (atomic_load(&block_submit_us) > 0)
		fprintf(fp, "split calls: a block submitted in %.1f us\n",
			atomic_load(&block_submit_us));
}

static void split_lateness(const struct pph_codelet *cl, double *late_us)
{
	int i;
	unsigned a;

	pthread_mutex_lock(&split_lock);
	i = split_slot(cl, 0);
	for (a = 0; a < 3; a++)
		late_us[a] = i >= 0 ? split_seen[i].late_us[a] : 0;
	pthread_mutex_unlock(&split_lock);
}

/* The index of arch among a split's kinds (CPU, OpenCL, CUDA), or -1. */
static int split_kind(enum pph_arch arch)
{
	return arch == PPH_ARCH_CPU ? 0 : arch == PPH_ARCH_OPENCL ? 1 : arch == PPH_ARCH_CUDA ? 2 : -1;
}

double pph__split_late_us(const struct pph_codelet *cl, enum pph_arch arch)
{
	double late_us[3];
	int a = split_kind(arch);

	split_lateness(cl, late_us);
	return a >= 0 ? late_us[a] : 0;
}

void pph__split_set_late(const struct pph_codelet *cl, enum pph_arch arch, double us)
{
	int a = split_kind(arch), i;

	if (a < 0)
		return;
	pthread_mutex_lock(&split_lock);
	i = split_slot(cl, 1);
	split_seen[i].late_us[a] = us;
	pthread_mutex_unlock(&split_lock);
}

/* kind a's blocks ended took_us after their submission began, where the
 * split predicted end_us.  A device's end is taken when its kernel has
 * run, before the copy home its prediction counts.  A kind given no block
 * is not measured: its lateness fades instead (a quarter at each call),
 * so that one late call does not keep it out for the rest of the run. */
static void split_measured(const struct pph_codelet *cl, unsigned a, double took_us,
			   double end_us)
{
	double late = took_us > end_us ? took_us - end_us : 0;
	int i;

	if (!(end_us > 0) || !isfinite(took_us))
		return;
	pthread_mutex_lock(&split_lock);
	i = split_slot(cl, 1);
	split_seen[i].late_us[a] = 0.5 * split_seen[i].late_us[a] + 0.5 * late;
	pthread_mutex_unlock(&split_lock);
}

static void split_unmeasured(const struct pph_codelet *cl, unsigned a)
{
	int i;

	pthread_mutex_lock(&split_lock);
	if ((i = split_slot(cl, 0)) >= 0)
		split_seen[i].late_us[a] *= 0.75;
	pthread_mutex_unlock(&split_lock);
}

/*
 * Hybrid splitting: the blocks of a call shared among the kinds of
 * workers that end it soonest, as their blocks' lines predict (copies to
 * and from a device included, from the models: they follow what the
 * models learn).  A kind whose blocks would cost more than the others take
 * for the whole call gets none: on PoCL here a kernel's launch is about
 * 2.5 ms, and given its one block of an SpMV that takes the CPU workers
 * 0.1 ms, it made the call 28 times slower.  n blocks, or for n 0
 * (partition="auto") one per worker of the kinds chosen.  Fills sizes[k]
 * and masks[k] (the variants block k may run: those of its kind) and
 * returns the count of blocks; 0 when blocks stay equal and dmda places
 * them (one kind of worker, or fewer blocks than kinds).
 */
static unsigned hybrid_split(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			     const pph_data_handle *handles, const enum pph_access *modes,
			     const int *parts, unsigned n, size_t total, size_t *sizes,
			     unsigned *masks, unsigned char *kind_of, double *end_us)
{
	static const enum pph_arch kinds[] = { PPH_ARCH_CPU, PPH_ARCH_OPENCL, PPH_ARCH_CUDA };
	struct block_line line[3];
	double share[3], best_share[3] = { 0 }, best = INFINITY, late_us[3];
	unsigned workers[3] = { 0 }, mask[3], nblocks[3], best_blocks[3] = { 0 };
	unsigned present = 0, nkinds = 0, calibrating = 0, most = 0, count, set, a, o, k = 0, i;
	size_t rows[3], left = total, step = (total + 63) / 64, given_rows = 0, equal;

	for (a = 0; a < 3; a++) {
		workers[a] = pph__rt.arch_workers[kinds[a]];
		mask[a] = workers[a] ? arch_mask(cl, impl_mask, kinds[a]) : 0;
		if (mask[a]) {
			present |= 1u << a;
			nkinds++;
		}
	}
	if (nkinds < 2 || (n && n < nkinds))
		return 0;
	/* the lines are drawn from blocks of the length all would have
	 * with every kind taking part: the length that calibrates them */
	count = blocks_of(present, workers, n, best_blocks);
	if (count > total)
		return 0;
	equal = total / count;
	split_lateness(cl, late_us);
	for (a = 0; a < 3; a++)
		if (mask[a] && block_line(cl, mask[a], arch_node(kinds[a]), nbuffers, handles, modes,
					  parts, equal, &line[a]) < 0)
			calibrating |= 1u << a;
		else if (mask[a])
			line[a].fixed += late_us[a];
	*end_us = 0; /* calibrating: nothing predicted */
	if (calibrating) {
		/* blocks of that length, each kind its share of them, and the
		 * rest of the rows to a block of a kind calibrated already
		 * (else to each block in turn, call by call).  Left to dmda,
		 * the blocks all went to the CPU workers, which were
		 * calibrated, and never to a device whose first run in a
		 * process costs its setup: 3 blocks for 2 CPU workers at
		 * every call here; on the H100 machine the OpenCL split moved
		 * nothing and took 2.4-7 times OpenMP's time */
		static atomic_uint turn;
		unsigned rest = atomic_fetch_add_explicit(&turn, 1, memory_order_relaxed) % count;

		for (o = 0; o < 3; o++)
			for (a = submit_order[o], i = 0; i < best_blocks[a]; i++, k++) {
				sizes[k] = equal;
				masks[k] = mask[a];
				kind_of[k] = (unsigned char)a;
				if (i == 0 && !(calibrating >> a & 1u))
					rest = k;
			}
		sizes[rest] += total - equal * count;
		return count;
	}
	/* every set of the kinds present (three kinds at most: seven sets) */
	for (set = 1; set < 8; set++) {
		unsigned c = n;
		double end;

		if ((set & present) != set)
			continue;
		end = split_end(set, line, workers, &c, total, step, nblocks, share);
		if (end < best) {
			best = end;
			count = c;
			memcpy(best_blocks, nblocks, sizeof(nblocks));
			memcpy(best_share, share, sizeof(share));
		}
	}
	if (best == INFINITY || count > total)
		return 0;
	for (a = 0; a < 3; a++)
		if (mask[a] && !best_blocks[a])
			split_unmeasured(cl, a);
	/* rows in steps of a 64th of the call, the kind with the most taking
	 * what is left: the models move a little at every call, and blocks
	 * of a new length each time found no device buffer of their size to
	 * reuse (a 37 MB buffer allocated and faulted in at each call on
	 * PoCL: the call took 4 times the split's prediction) */
	for (a = 0; a < 3; a++)
		if (best_blocks[a] && (!best_blocks[most] || best_share[a] > best_share[most]))
			most = a;
	for (a = 0; a < 3; a++) {
		rows[a] = (size_t)floor((double)total * best_share[a] / (double)step + 0.5) * step;
		if (rows[a] < best_blocks[a])
			rows[a] = best_blocks[a];
		if (a != most)
			left -= rows[a] < left ? rows[a] : left;
	}
	rows[most] = left;
	for (o = 0; o < 3; o++)
		for (a = submit_order[o], i = 0; i < best_blocks[a]; i++, k++) {
			size_t len = rows[a] / best_blocks[a] + (i < rows[a] % best_blocks[a]);

			sizes[k] = len ? len : 1;
			masks[k] = mask[a];
			kind_of[k] = (unsigned char)a;
		}
	*end_us = best;
	/* what rounding left over goes to (or comes from) the largest blocks,
	 * every block keeping at least one row */
	for (k = 0; k < count; k++)
		given_rows += sizes[k];
	while (given_rows != total) {
		unsigned big = 0;

		for (k = 1; k < count; k++)
			big = sizes[k] > sizes[big] ? k : big;
		if (given_rows < total) {
			sizes[big] += total - given_rows;
			given_rows = total;
		} else if (sizes[big] > 1) {
			size_t cut = given_rows - total < sizes[big] - 1 ? given_rows - total : sizes[big] - 1;

			sizes[big] -= cut;
			given_rows -= cut;
		} else {
			return 0;
		}
	}
	return count;
}

/* Data registered at NULL stays on the host (submit.c): such a call is not
 * split among kinds of workers. */
static int host_only(unsigned nbuffers, const pph_data_handle *handles)
{
	unsigned i;

	for (i = 0; i < nbuffers; i++)
		if (handles[i] && !handles[i]->host.iface.vector.ptr && handles[i]->bytes)
			return 1;
	return 0;
}

/* A block of a split call has run: its kind's end, the latest of its
 * blocks'. */
static void block_ended(void *data)
{
	_Atomic double *end = data;
	double now = pph__now_us(), seen = atomic_load(end);

	while (now > seen && !atomic_compare_exchange_weak(end, &seen, now))
		;
}

/*
 * A split call's tables, per block: 56 KiB, on the heap rather than the
 * stack of the calling thread (an application thread made with a small
 * stack).  One allocation a split call, which partitions its data and
 * submits a task a block anyway.  An asynchronous call's gather task
 * frees it.
 */
struct split_space {
	pph_data_handle blocks[PPH_MAX_BUFFERS][PPH_MAX_WORKERS];
	struct block block[PPH_MAX_WORKERS];
	size_t sizes[PPH_MAX_WORKERS];
	unsigned masks[PPH_MAX_WORKERS];
	unsigned char kind_of[PPH_MAX_WORKERS];
	/* what the blocks' end needs: the call's partitioned buffers
	 * (part[i] >= 0 where first[i] == i), blocks submitted, the error
	 * their submission met, each kind's end (block_ended) against the
	 * split's prediction */
	const struct pph_codelet *cl;
	unsigned nbuffers, first[PPH_MAX_BUFFERS];
	int parts[PPH_MAX_BUFFERS];
	enum pph_access modes[PPH_MAX_BUFFERS];
	int n, submitted_blocks, submit_rc;
	_Atomic double ended[3];
	double t0, end_us;
	struct pph_successor gather_after_scatter; /* where no block was submitted */
};

/* Buffer i is partitioned, and not the same handle as an earlier one. */
static int owns_blocks(const struct split_space *sp, unsigned i)
{
	return sp->parts[i] >= 0 && sp->first[i] == i;
}

/* The blocks have run (their data home): their errors, the first
 * returned where rc is 0, and each kind's lateness learned. */
static int blocks_done(struct split_space *sp, int rc)
{
	unsigned a;
	int k;

	/* a block no variant could run leaves the call short: its error */
	for (k = 0; k < sp->submitted_blocks; k++) {
		int block_rc = pph_task_wait(sp->block[k].task);

		if (rc == 0)
			rc = block_rc;
		pph_task_destroy(sp->block[k].task);
	}
	for (a = 0; rc == 0 && sp->end_us > 0 && a < 3; a++)
		if (atomic_load(&sp->ended[a]) > 0)
			split_measured(sp->cl, a, atomic_load(&sp->ended[a]) - sp->t0, sp->end_us);
	return rc;
}

/*
 * An asynchronous split call (pph_call_partitioned_async) is three steps
 * of tasks, none waited for by the caller: a scatter, with the partitioned
 * handles (split_mode) on a CPU worker, after their earlier tasks, their
 * data home (the blocks are views of their host memory); the blocks, each
 * after the scatter; a gather, with the same handles, after every block,
 * which brings the blocks home and unregisters them.  Edges from the
 * scatter and to the gather are not the handles' (a call has up to 256
 * blocks, a task 16 handles): pph__deps_add's.  The gather is listed on
 * the handles with the scatter, in the same locks (deps.c): a task another
 * thread submits on them meanwhile comes after the gather, not between.
 */
static void scatter_cpu(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static void gather_cpu(void *buffers[], void *arg)
{
	struct split_space *sp = *(struct split_space **)arg;
	unsigned i;
	int rc;

	(void)buffers;
	for (i = 0; i < sp->nbuffers; i++)
		if (owns_blocks(sp, i))
			pph__data_blocks_drop((unsigned)sp->n, sp->blocks[i]);
	rc = blocks_done(sp, sp->submit_rc);
	/* a failure at submission was the caller's to report */
	if (rc != 0 && sp->submit_rc == 0)
		pph_call_failed(sp->cl, rc);
	free(sp);
}

static const struct pph_impl scatter_impls[] = { { PPH_ARCH_CPU, scatter_cpu, "cpu", 0 } };
static const struct pph_impl gather_impls[] = { { PPH_ARCH_CPU, gather_cpu, "cpu", 0 } };
static const struct pph_codelet scatter_cl = { .name = "pph_split_scatter",
					       .nimpls = 1,
					       .impls = scatter_impls };
static const struct pph_codelet gather_cl = { .name = "pph_split_gather",
					      .nimpls = 1,
					      .impls = gather_impls };

/*
 * How the scatter and the gather access buffer i's handle: as the call's
 * blocks do, every buffer that names it together.  A handle the blocks
 * only read stays valid where it is (PPH_R); one they only write is not
 * brought home first (PPH_W: the blocks write all of it); else PPH_RW.
 */
static enum pph_access split_mode(const struct split_space *sp, unsigned i)
{
	unsigned mode = 0, j;

	for (j = i; j < sp->nbuffers; j++)
		if (sp->parts[j] >= 0 && sp->first[j] == i)
			mode |= sp->modes[j];
	return mode == PPH_R || mode == PPH_W ? (enum pph_access)mode : PPH_RW;
}

/* The scatter or the gather of sp's call, not submitted; NULL if none
 * could be made. */
static struct pph_task *split_step(const struct pph_codelet *step, const pph_data_handle *handles,
				   struct split_space *sp)
{
	struct pph_task *t = pph_task_create(step);
	unsigned i;
	int rc = t ? 0 : -ENOMEM;

	for (i = 0; rc == 0 && i < sp->nbuffers; i++)
		if (owns_blocks(sp, i))
			rc = pph_task_add_buffer(t, handles[i], split_mode(sp, i));
	if (rc == 0)
		rc = pph_task_set_arg(t, &sp, sizeof(sp));
	if (rc == 0) /* its edges' fields set: pph__deps_drop may look at them */
		pph__task_share(t);
	if (rc != 0 && t) {
		pph_task_destroy(t);
		t = NULL;
	}
	return t;
}

/* Can the call be asynchronous: a CPU worker to scatter and gather, and
 * its partitioned handles registered (else the synchronous call says why
 * not)? */
static int async_possible(const pph_data_handle *handles, const struct split_space *sp)
{
	unsigned i;

	if (!pph__rt.arch_workers[PPH_ARCH_CPU])
		return 0;
	for (i = 0; i < sp->nbuffers; i++)
		if (owns_blocks(sp, i) &&
		    atomic_load(&handles[i]->state) != PPH_HANDLE_REGISTERED)
			return 0;
	return 1;
}

/*
 * A split call: its blocks sized, its data partitioned, its blocks
 * submitted; then, where *async stays set, the gather will end the call
 * and free sp; else the call has ended (*async cleared: it could not be
 * asynchronous).
 */
static int call_split(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		      const pph_data_handle *handles, const enum pph_access *modes,
		      const int *parts, const void *arg, size_t arg_size, int n,
		      struct split_space *sp, int *async)
{
	pph_data_handle(*blocks)[PPH_MAX_WORKERS] = sp->blocks;
	pph_data_handle sub[PPH_MAX_BUFFERS];
	struct pph_task *scatter = NULL, *gather = NULL;
	struct block *block = sp->block;
	const unsigned call_mask = impl_mask;
	const unsigned *first = sp->first;
	size_t *sizes = sp->sizes, total = 0;
	unsigned *masks = sp->masks;
	unsigned char *kind_of = sp->kind_of;
	double end_us = 0, t0, submit_end;
	int rc = 0, k, per_worker = 0, same_length;
	unsigned i, done = 0, hybrid = 0;
	int (*whole)(const struct pph_codelet *, unsigned, unsigned, const pph_data_handle *,
		     const enum pph_access *, const void *, size_t) =
		*async ? pph_call_async : pph_call_sync;
	const int want_async = *async;

	*async = 0; /* until its gather is made */

	if (n > PPH_MAX_WORKERS)
		n = PPH_MAX_WORKERS;
	for (i = 0; i < nbuffers; i++)
		per_worker |= parts[i] == 0;
	/* blocks of sizes by throughput need every partitioned buffer to
	 * have the same length along the split */
	for (i = 0; i < nbuffers; i++)
		if (parts[i] >= 0 && handles[i]) {
			if (total && split_length(handles[i]) != total)
				break;
			total = split_length(handles[i]);
		}
	same_length = i == nbuffers;
	/* more blocks than elements (partition="8" over 3 rows): a block
	 * each, the call whole where there is one or none */
	if (same_length && (size_t)n > total)
		n = total ? (int)total : 1;
	if (n <= 1)
		return whole(cl, impl_mask, nbuffers, handles, modes, arg, arg_size);
	if (same_length && total >= (size_t)n && pph__rt.initialized &&
	    !host_only(nbuffers, handles))
		hybrid = hybrid_split(cl, impl_mask, nbuffers, handles, modes, parts,
				      per_worker ? 0 : (unsigned)n, total, sizes, masks, kind_of,
				      &end_us);
	if (hybrid == 1) { /* one kind, one worker: the call whole */
		sizes[0] = total;
		split_counted(cl, 1, sizes, kind_of);
		return whole(cl, masks[0], nbuffers, handles, modes, arg, arg_size);
	}
	if (hybrid) {
		split_counted(cl, hybrid, sizes, kind_of);
		n = (int)hybrid;
	} else if (pph__rt.initialized) {
		n = (int)one_kind_blocks(cl, (unsigned)n, per_worker, &impl_mask);
		/* a block per worker, but no more blocks than elements (2 rows,
		 * 3 workers: partitioning into 3 failed every call) */
		if (same_length && total && (size_t)n > total)
			n = (int)total;
	}
	if (n <= 1)
		return whole(cl, impl_mask, nbuffers, handles, modes, arg, arg_size);
	sp->cl = cl;
	sp->n = n;
	sp->end_us = end_us;
	sp->submitted_blocks = 0;
	for (i = 0; i < 3; i++)
		atomic_init(&sp->ended[i], 0);
	if (want_async && async_possible(handles, sp) && (scatter = split_step(&scatter_cl, handles, sp)) &&
	    !(gather = split_step(&gather_cl, handles, sp))) {
		pph_task_destroy(scatter);
		scatter = NULL;
	}
	/* an asynchronous call's blocks are made first: once its scatter is
	 * submitted, its gather is listed and must run */
	for (i = 0; gather && rc == 0 && i < nbuffers; i++)
		if (owns_blocks(sp, i) &&
		    (rc = pph__data_blocks(handles[i], (unsigned)n, hybrid ? sizes : NULL,
					   blocks[i])) == 0)
			done = i + 1;
	if (gather && rc == 0) {
		scatter->twin = gather;
		gather->prelisted = 1;
		pph__deps_add(scatter, gather, &sp->gather_after_scatter);
		atomic_fetch_add(&scatter->refs, 1); /* ours until the blocks have their edges */
		pph_task_set_detached(scatter, 1);
		rc = pph__task_submit_entered(scatter);
		if (rc != 0) /* refused (its handles' state): the synchronous call says why */
			atomic_fetch_sub(&scatter->refs, 1);
	}
	if (gather && rc != 0) { /* nothing submitted: the blocks made go */
		for (i = 0; i < done; i++)
			if (owns_blocks(sp, i))
				pph__data_blocks_drop((unsigned)n, blocks[i]);
		scatter->detached = 0;
		pph_task_destroy(scatter);
		pph_task_destroy(gather);
		scatter = gather = NULL;
		rc = done = 0;
	}
	for (i = 0; !gather && rc == 0 && i < nbuffers; i++) {
		if (owns_blocks(sp, i))
			rc = hybrid ? pph_data_partition_sizes(handles[i], (unsigned)n, sizes,
							       blocks[i]) :
				      pph_data_partition(handles[i], (unsigned)n, blocks[i]);
		if (rc == 0) /* those partitioned, to unpartition */
			done = i + 1;
	}
	t0 = sp->t0 = pph__now_us();
	pph__wakes_hold();
	for (k = 0; rc == 0 && k < n; k++) {
		for (i = 0; i < nbuffers; i++)
			sub[i] = parts[i] >= 0 ? blocks[first[i]][k] : handles[i];
		block[k] = (struct block){ .fallback_mask = call_mask,
					   .done = hybrid ? block_ended : NULL,
					   .done_data = hybrid ? &sp->ended[kind_of[k]] : NULL,
					   .after = scatter };
		rc = call(cl, hybrid ? masks[k] : impl_mask, nbuffers, sub, modes, arg, arg_size, 0,
			  &block[k]);
		if (rc == 0) {
			sp->submitted_blocks = k + 1;
			if (gather)
				pph__deps_add(block[k].task, gather, &block[k].gather_edge);
		}
	}
	sp->submit_rc = rc;
	if (gather) {
		pph__task_release(scatter); /* the blocks have their edges */
		/* listed with the scatter: it must run.  Not refused (this
		 * call is one pph_shutdown waits for) but if so, it runs here
		 * once the blocks have, and ends as a task would */
		pph_task_set_detached(gather, 1);
		if (pph__task_submit_entered(gather) != 0) {
			for (k = 0; k < sp->submitted_blocks; k++)
				pph_task_wait(block[k].task);
			gather_cpu(NULL, &sp);
			pph__task_finish(gather);
		}
		*async = 1;
	}
	pph__wakes_release();
	submit_end = pph__now_us();
	if (rc == 0 && hybrid)
		submitted((unsigned)n, submit_end - t0);
	if (gather)
		return rc;
	for (i = 0; i < done; i++) /* waits for the sub-tasks */
		if (owns_blocks(sp, i))
			pph_data_unpartition(handles[i], (unsigned)n, blocks[i]);
	return blocks_done(sp, rc);
}

/* pph_call_partitioned, or its asynchronous form where async. */
static int call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			    const pph_data_handle *handles, const enum pph_access *modes,
			    const int *parts, const void *arg, size_t arg_size, int async)
{
	struct split_space *sp;
	unsigned first[PPH_MAX_BUFFERS];
	/* each block starts with the caller's errno, which the call leaves
	 * as it was: the blocks' own cannot be told apart */
	int n, rc, entered, caller_errno = errno;

	if (!cl || !parts || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	if ((n = part_count(nbuffers, parts)) < 0)
		return -EINVAL;
	/* blocks run on workers: a call whose variants run on its caller's
	 * thread runs whole */
	if (n <= 1 || (pph__rt.initialized && for_caller(cl, impl_mask)) ||
	    !pph__split_shared(nbuffers, handles, parts, first)) {
		rc = async ? pph_call_async(cl, impl_mask, nbuffers, handles, modes, arg, arg_size) :
			     pph_call_sync(cl, impl_mask, nbuffers, handles, modes, arg, arg_size);
		errno = caller_errno;
		return rc;
	}
	if (!(sp = malloc(sizeof(*sp))))
		return -ENOMEM;
	sp->nbuffers = nbuffers;
	memcpy(sp->first, first, nbuffers * sizeof(*first));
	memcpy(sp->parts, parts, nbuffers * sizeof(*parts));
	memcpy(sp->modes, modes, nbuffers * sizeof(*modes));
	/* its blocks' partition, calls and unpartition (or scatter, calls
	 * and gather submitted), all before pph_shutdown tears down what
	 * they use, or none */
	if ((entered = pph__enter()) < 0) {
		free(sp);
		return pph__shutting_down();
	}
	rc = call_split(cl, impl_mask, nbuffers, handles, modes, parts, arg, arg_size, n, sp,
			&async);
	/* the blocks' calls told none: the containers' handles are the parents */
	if (rc == 0)
		containers_called(nbuffers, handles, modes);
	if (entered > 0)
		pph__leave();
	if (!async) /* else its gather's */
		free(sp);
	errno = caller_errno;
	return rc;
}

int pph_call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			 const pph_data_handle *handles, const enum pph_access *modes,
			 const int *parts, const void *arg, size_t arg_size)
{
	return call_partitioned(cl, impl_mask, nbuffers, handles, modes, parts, arg, arg_size, 0);
}

int pph_call_partitioned_async(const struct pph_codelet *cl, unsigned impl_mask,
			       unsigned nbuffers, const pph_data_handle *handles,
			       const enum pph_access *modes, const int *parts, const void *arg,
			       size_t arg_size)
{
	return call_partitioned(cl, impl_mask, nbuffers, handles, modes, parts, arg, arg_size, 1);
}

/* -ENODEV for a codelet some of whose variants failed and were disabled:
 * say which, rather than that no worker can run the others. */
static void disabled_said(const struct pph_codelet *cl, const char *name)
{
	unsigned mask = pph__impl_disabled_mask(cl), i;
	char names[256] = "";
	size_t len = 0;

	/* one line, written at once: calls fail on several threads */
	for (i = 0; i < cl->nimpls && i < 32 && len < sizeof(names); i++)
		if (mask >> i & 1u)
			len += (size_t)snprintf(names + len, sizeof(names) - len, " %s",
						cl->impls[i].name ? cl->impls[i].name : "?");
	fprintf(stderr, "peppher: %s: call failed: no variant the call allows is left (disabled after failing:%s)\n",
		name, names);
}

void pph_call_failed(const struct pph_codelet *cl, int rc)
{
	const char *name = cl && cl->name ? cl->name : "?";

	atomic_fetch_add(&pph__rt.failed_calls, 1);
	if (!pph__failure_said())
		return;
	/* -ENODEV says "No such device": say what is wrong instead */
	if (rc == -EDOM)
		fprintf(stderr, "peppher: %s: no variant's constraints hold for this call\n", name);
	else if (rc == -ENODEV && !pph__rt.initialized)
		pph__not_running(name);
	else if (rc == -ENODEV && atomic_load(&pph__rt.stopping))
		; /* said once a shutdown (pph__shutting_down) */
	else if (rc == -ECANCELED)
		; /* the variant said why (pph_variant_error) */
	else if (rc == -ENODEV && cl && pph__impl_disabled_mask(cl))
		disabled_said(cl, name);
	else if (rc == -ENODEV)
		fprintf(stderr, "peppher: %s: call failed: no worker can run any variant the call allows\n",
			name);
	else if (rc == -EFAULT)
		fprintf(stderr, "peppher: %s: call failed: a pointer argument is NULL with elements, which no device can hold, and the call allows no CPU or OpenMP variant\n",
			name);
	else
		fprintf(stderr, "peppher: %s: call failed: %s\n", name, pph__failure_reason(rc));
}
