/*
 * History-based and regression performance models.
 *
 * File format (one file per codelet, CODELET.model, text; after the first
 * line, '#' comments and blank lines):
 *
 *     peppher-perfmodel 1
 *     codelet NAME
 *     variant NAME ARCH [THREADS]
 *     entry FOOTPRINT SIZE COUNT MEAN M2 OUTLIERS FIRSTS SLOWEST
 *     ...
 *
 * THREADS, written when above 1, is the size of the CPU team a fork-join
 * (OPENMP) variant ran with: each team size has its own history.
 * FOOTPRINT is 8 hex digits, SIZE bytes, MEAN microseconds and M2 the sum of
 * squared deviations (Welford), FIRSTS how many of the COUNT samples were a
 * process's only run of the entry (absent in older files: none), SLOWEST
 * the slowest of them since the last left out as an outlier, microseconds
 * (absent in older files, or 0: not known; see drop_slowest); entries
 * follow their variant line.  Files
 * are written to a temporary name and renamed, under an flock on
 * CODELET.lock, after merging this process's samples into what is on disk
 * then, so concurrent processes lose nothing.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "perfmodel.h"

/*
 * The scheduler asks for predictions on every push: the variant of a
 * (codelet, variant index, arch, team size) is found through a table keyed
 * by the codelet's address instead of by names.  A row per architecture,
 * then one per CPU team size from 2 to CACHE_TEAMS + 1 (a larger team is looked
 * up by name): dmda asks for a fork-join variant's every team size at every
 * push, and looking those up by name cost a fifth of what choosing among
 * four variants adds to a call (bench/choice_cost with 16 CPU workers:
 * 0.68 us, 0.55 with team sizes in the table).
 */
#define CACHE_SLOTS 256
#define CACHE_TEAMS 63
#define CACHE_ROWS (PPH_ARCH_COUNT + CACHE_TEAMS)

struct cache_slot {
	const struct pph_codelet *cl;
	struct pph_pm_variant **variants; /* [impl * CACHE_ROWS + row] */
	/* each one's changes (struct pph_pm_ask's version), kept with the
	 * slot rather than the variant: one not made yet changes too, when
	 * its first sample makes it */
	_Atomic unsigned *versions;
};

static struct {
	pthread_mutex_t lock;
	enum pph_calibrate calibrate;
	struct pph_pm_model *models;
	char *dir;
	int dir_settled; /* dir is what pph__perfmodel_init made of the environment */
	struct cache_slot cache[CACHE_SLOTS];
} pm = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- statistics ---- */

/* Welford's running mean and sum of squared deviations. */
static void welford_add(unsigned long *n, double *mean, double *m2, double x)
{
	double d;

	(*n)++;
	d = x - *mean;
	*mean += d / (double)*n;
	*m2 += d * (x - *mean);
}

/* Take x, one of the samples, back out. */
static void welford_remove(unsigned long *n, double *mean, double *m2, double x)
{
	double rest;

	if (*n <= 1) {
		*n = 0;
		*mean = *m2 = 0;
		return;
	}
	rest = (*mean * (double)*n - x) / (double)(*n - 1);
	*m2 = fmax(*m2 - (x - *mean) * (x - rest), 0);
	*mean = rest;
	(*n)--;
}

static void welford_merge(unsigned long *n, double *mean, double *m2,
			  unsigned long nb, double meanb, double m2b)
{
	unsigned long na = *n, total = na + nb;
	double d = meanb - *mean;

	if (!nb)
		return;
	*mean += d * (double)nb / (double)total;
	*m2 += m2b + d * d * (double)na * (double)nb / (double)total;
	*n = total;
}

/*
 * Whether x is far above a history of n samples (mean, m2): over 3 times
 * its mean and 50 us more (the floor keeps the jitter of tiny kernels in
 * the mean), and, once the history is long enough to say how spread its
 * runs are (10 samples), 4 standard deviations above it: a variant whose
 * runs take two values far apart keeps both.
 */
static int far_above(unsigned long n, double mean, double m2, double x)
{
	if (!(x > 3.0 * mean && x > mean + 50.0))
		return 0;
	return n < 10 || x > mean + 4.0 * sqrt(m2 / (double)(n - 1));
}

/*
 * Whether a history of kept samples, outliers left out of it already, may
 * leave out one more.  Slowed runs (preemption, page faults) are rare: one,
 * then one in ten of the samples kept.  More often, the variant has become
 * slower (the machine's load, or what else the process runs, changed), and
 * rejecting them all would keep the old mean, and the choice made on it,
 * for good.  The one beyond one in ten: a slowed run is left out whatever
 * came before it.  With one in ten alone, a history that had left out a
 * run at its calibration kept the next slowed one among its first ten:
 * work_fast, 0.13 ms a run, had a run of 20 ms as its 5th sample, a mean
 * of 4.1 ms, and never ran again.
 */
static int outlier_room(unsigned long outliers, unsigned long kept)
{
	return outliers * 10 < kept + 10;
}

/* A sample far slower than the history (preemption, page faults) would
 * drag the mean: left out, once the history has PPH_CALIBRATION_MIN
 * samples to say what its runs take. */
static int is_outlier(const struct pph_pm_entry *e, double x)
{
	return e->count >= PPH_CALIBRATION_MIN && outlier_room(e->outliers, e->count) &&
	       far_above(e->count, e->mean, e->m2, x);
}

/*
 * A slowed run that came before the history could tell (among its first
 * samples, or a process's only run merged at its end) stays in the mean,
 * and a variant shut out by its mean is not run again to dilute it: dmda
 * kept work_slow (0.35 ms) over work_fast (0.13 ms) whose 5 samples held
 * one of 20 ms, and PEPPHER_CALIBRATE=1 only added 3 more.  So each entry
 * keeps its slowest sample (since the last one left out; 0: not known, a
 * file from before), and once it holds PPH_CALIBRATION_MIN samples, leaves
 * that one out when far above the others (is_outlier's rule, against the
 * mean of the others).  One slowed sample then never decides a choice,
 * whenever it came.  Returns the sample left out, or 0.
 */
static double drop_slowest(struct pph_pm_entry *e)
{
	unsigned long n = e->count;
	double x = e->slowest, rest, rest_m2;
	int ours;

	if (n < PPH_CALIBRATION_MIN || !(x > 0) || !outlier_room(e->outliers, n - 1))
		return 0;
	rest = (e->mean * (double)n - x) / (double)(n - 1);
	rest_m2 = fmax(e->m2 - (x - e->mean) * (x - rest), 0);
	/* rest < 0: a slowest the mean cannot hold (a file edited by hand) */
	if (!(rest >= 0) || !far_above(n - 1, rest, rest_m2, x))
		return 0;
	/* this process's sample, or one stored before (then taken out of
	 * what is stored as the merge at its end finds it there again) */
	ours = e->dslowest == x;
	welford_remove(&e->count, &e->mean, &e->m2, x);
	e->outliers++;
	if (ours && e->dcount) {
		welford_remove(&e->dcount, &e->dmean, &e->dm2, x);
		e->doutliers++;
	}
	if (ours)
		e->dslowest = 0;
	/* the slowest of the samples still known: this process's */
	e->slowest = e->dslowest;
	/* it may have been one of the first runs: they stay a part of count */
	if (e->firsts > e->count)
		e->firsts = e->count;
	return x;
}

/*
 * A process's first run of an entry pays one-time costs (page faults of
 * fresh buffers, a library's lazy start: a BLAS's first sgemm of a
 * process) that its later runs do not.  It is a sample only when it stays
 * the process's only run (a call made once per run pays them every run),
 * and then it is kept apart from a history of later runs: it is left out
 * of one, and replaced by one, when far from it.  Without that, a short
 * run that tried a variant once would calibrate it on first runs alone,
 * and dmda would never choose it again.
 */
static int first_run_costs(double first_us, double later_us)
{
	return first_us > 3.0 * later_us && first_us > later_us + 50.0;
}

/* ---- regression ---- */

/* Least squares of log t = log a + b log s, with t reduced by c. */
static double fit_power(const struct pph_pm_variant *v, double c, double *a,
			double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, sse = 0;
	const struct pph_pm_entry *e;

	for (e = v->entries; e; e = e->next) {
		double x, y;

		if (e->count < 1 || e->size <= 0 || e->mean <= c)
			continue;
		x = log(e->size);
		y = log(e->mean - c);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		n++;
	}
	if (n < 3 || n * sxx - sx * sx <= 0)
		return INFINITY;
	*b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	*a = exp((sy - *b * sx) / n);
	if (!isfinite(*a) || !isfinite(*b))
		return INFINITY;
	for (e = v->entries; e; e = e->next) {
		double d;

		if (e->count < 1 || e->size <= 0)
			continue;
		d = *a * pow(e->size, *b) + c - e->mean;
		sse += d * d;
	}
	return sse;
}

void pph__perfmodel_fit(struct pph_pm_variant *v, int with_constant)
{
	double best = INFINITY, tmin = INFINITY, a = 0, b = 0;
	const struct pph_pm_entry *e;
	unsigned npoints = 0, i;

	v->reg_dirty = 0;
	v->reg.valid = 0;
	/* every size measured is a point: a regression over many sizes needs
	 * no size measured three times (a call whose work changes at every
	 * call, each work once per run, would never get there) */
	for (e = v->entries; e; e = e->next)
		if (e->count >= 1 && e->size > 0) {
			npoints++;
			if (e->mean < tmin)
				tmin = e->mean;
		}
	v->reg.npoints = npoints;
	if (npoints < 3)
		return;
	/* a*n^b, then a*n^b+c for a constant overhead c below the fastest run */
	for (i = 0; i < (with_constant ? 10u : 1u); i++) {
		double c = tmin * 0.1 * i, sse = fit_power(v, c, &a, &b);

		if (sse < best) {
			best = sse;
			v->reg.a = a;
			v->reg.b = b;
			v->reg.c = c;
			v->reg.valid = 1;
		}
	}
}

/* ---- lookup ---- */

static struct pph_pm_model *model_new(const char *codelet)
{
	struct pph_pm_model *m = calloc(1, sizeof(*m));

	if (m && !(m->codelet = strdup(codelet))) {
		free(m);
		return NULL;
	}
	return m;
}

static struct pph_pm_variant *variant_get(struct pph_pm_model *m,
					  const char *name, enum pph_arch arch,
					  unsigned threads, int create)
{
	struct pph_pm_variant *v;

	for (v = m->variants; v; v = v->next)
		if (v->arch == arch && v->threads == threads && strcmp(v->name, name) == 0)
			return v;
	if (!create || !(v = calloc(1, sizeof(*v))))
		return NULL;
	if (!(v->name = strdup(name))) {
		free(v);
		return NULL;
	}
	v->arch = arch;
	v->threads = threads;
	v->next = m->variants;
	m->variants = v;
	return v;
}

/* The slot of footprint fp in v's index: its entry, or the empty slot
 * where it goes. */
/* An entry is its footprint and its size: a 32-bit hash of shapes is
 * shared by two sizes in a few hundred thousand (n = 4191 and 549660
 * floats), whose histories must not mix. */
static struct pph_pm_entry **index_slot(const struct pph_pm_variant *v, uint32_t fp, double size)
{
	/* footprints are hashes already; one multiply spreads a file's
	 * made-up ones (1, 2, 3...) too */
	size_t mask = v->index_cap - 1;
	size_t i = (size_t)(((uint64_t)fp * 0x9e3779b97f4a7c15ull) >> 32) & mask;

	while (v->index[i] && (v->index[i]->footprint != fp || v->index[i]->size != size))
		i = (i + 1) & mask;
	return &v->index[i];
}

/* Make room in v's index for one more entry (at most half full), indexing
 * the list when there is no index yet.  Returns 0 or -ENOMEM. */
static int index_grow(struct pph_pm_variant *v)
{
	struct pph_pm_entry **old = v->index, *e;
	size_t cap = v->index_cap ? v->index_cap : 16, n = 0;

	if (old && 2 * (v->nentries + 1) <= v->index_cap)
		return 0;
	for (e = v->entries; !old && e; e = e->next)
		n++;
	if (old)
		n = v->nentries;
	while (2 * (n + 1) > cap)
		cap *= 2;
	if (!(v->index = calloc(cap, sizeof(*v->index)))) {
		v->index = old;
		return -ENOMEM;
	}
	v->index_cap = cap;
	v->nentries = n;
	/* a list made elsewhere may hold an entry twice: the first wins,
	 * as the walk of the list found it */
	for (e = v->entries; e; e = e->next) {
		struct pph_pm_entry **slot = index_slot(v, e->footprint, e->size);

		if (!*slot)
			*slot = e;
	}
	free(old);
	return 0;
}

static struct pph_pm_entry *entry_get(struct pph_pm_variant *v, uint32_t fp,
				      double size, int create)
{
	struct pph_pm_entry *e, **slot;

	if (!v->index && ((!v->entries && !create) || index_grow(v) != 0))
		return NULL;
	if ((e = *index_slot(v, fp, size)) || !create)
		return e;
	if (index_grow(v) != 0 || !(e = calloc(1, sizeof(*e))))
		return NULL;
	slot = index_slot(v, fp, size);
	e->footprint = fp;
	e->size = size;
	e->next = v->entries;
	v->entries = e;
	*slot = e;
	if (!v->nentries || size < v->size_lo)
		v->size_lo = size;
	if (!v->nentries || size > v->size_hi)
		v->size_hi = size;
	v->nentries++;
	return e;
}

char *pph__perfmodel_path(const char *dir, const char *codelet, const char *ext)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = strlen(codelet), i, k = 0;
	char *name = malloc(3 * len + 1), *path;

	if (!name)
		return NULL;
	/* a composed codelet's name is a C identifier and stays as it is;
	 * a name from a program or a file must not climb out of dir */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)codelet[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_') {
			name[k++] = (char)c;
		} else {
			name[k++] = '%';
			name[k++] = hex[c >> 4];
			name[k++] = hex[c & 15];
		}
	}
	name[k] = '\0';
	if (asprintf(&path, "%s/%s.%s", dir, name, ext) < 0)
		path = NULL;
	free(name);
	return path;
}

/* What model_read found wrong with a file, and whether its content is to
 * blame (not a file that could not be read, or a directory). */
struct read_error {
	char why[PATH_MAX + 128];
	int corrupt;
	/* stored_read: where a corrupt file was kept, "" if not; why not */
	char aside[PATH_MAX];
	int kept_errno;
	int keep; /* a file neither read nor kept aside: not to be replaced */
};

static struct pph_pm_model *stored_read(const char *codelet, const char *path, int locked,
					struct read_error *err);
static int lock_stored(const char *codelet, const char *unlocked);
static void stored_reset(const char *codelet);

/* The model of a codelet, read from its file at first use (PEPPHER_CALIBRATE=2:
 * the file removed instead).  pm.lock held. */
static struct pph_pm_model *model_get(const char *codelet)
{
	struct pph_pm_model *m;
	char *path;

	for (m = pm.models; m; m = m->next)
		if (strcmp(m->codelet, codelet) == 0)
			return m;
	m = NULL;
	if (pm.dir && pm.calibrate == PPH_CALIBRATE_RESET)
		stored_reset(codelet);
	else if (pm.dir && (path = pph__perfmodel_path(pm.dir, codelet, "model"))) {
		/* 8 KiB: not on the stack of an application thread (32 KiB
		 * ones submit); without it, the model starts empty, and the
		 * file is merged at the end all the same */
		struct read_error *err = malloc(sizeof(*err));

		m = err ? stored_read(codelet, path, 0, err) : NULL;
		if (!err)
			;
		else if (err->aside[0])
			fprintf(stderr, "peppher: warning: %s; kept as %s, starting a fresh one\n",
				err->why, err->aside);
		else if (err->corrupt)
			fprintf(stderr, "peppher: warning: %s; cannot keep it aside: %s; it is left as it is, and this process's samples of %s will not be saved\n",
				err->why, strerror(err->kept_errno), codelet);
		else if (err->why[0])
			fprintf(stderr, "peppher: warning: %s; starting a fresh one\n", err->why);
		if (!m && err && (m = model_new(codelet)))
			m->unsaved_said = err->corrupt && !err->aside[0];
		free(err);
		free(path);
	}
	if (!m)
		m = model_new(codelet);
	if (!m)
		return NULL;
	m->next = pm.models;
	pm.models = m;
	return m;
}

/* cl's slot, made at its first lookup, or NULL: the table is full (look
 * up by name every time); pm.lock held. */
static struct cache_slot *slot_of(const struct pph_codelet *cl)
{
	size_t h = ((uintptr_t)cl >> 4) % CACHE_SLOTS, probe;
	struct cache_slot *slot = NULL;

	for (probe = 0; probe < CACHE_SLOTS; probe++) {
		slot = &pm.cache[(h + probe) % CACHE_SLOTS];
		if (slot->cl == cl || !slot->cl)
			break;
	}
	if (probe == CACHE_SLOTS)
		return NULL;
	if (!slot->cl) {
		slot->variants = calloc((size_t)cl->nimpls * CACHE_ROWS,
					sizeof(*slot->variants));
		slot->versions = calloc((size_t)cl->nimpls * CACHE_ROWS,
					sizeof(*slot->versions));
		if (!slot->variants || !slot->versions) {
			free(slot->variants);
			free((void *)slot->versions);
			slot->variants = NULL;
			slot->versions = NULL;
			return NULL;
		}
		slot->cl = cl;
	}
	return slot;
}

/* The index of (impl, arch, threads) in a slot, or -1: a team too large. */
static long slot_index(unsigned impl, enum pph_arch arch, unsigned threads)
{
	if (threads == 1)
		return (long)(impl * CACHE_ROWS + arch);
	if (arch == PPH_ARCH_CPU && threads - 2 < CACHE_TEAMS)
		return (long)(impl * CACHE_ROWS + PPH_ARCH_COUNT + threads - 2);
	return -1;
}

/* The count of changes of (cl, impl, arch, threads), or NULL; pm.lock held. */
static _Atomic unsigned *version_of(const struct pph_codelet *cl, unsigned impl,
				    enum pph_arch arch, unsigned threads)
{
	struct cache_slot *slot = slot_of(cl);
	long k = slot_index(impl, arch, threads);

	return slot && k >= 0 ? &slot->versions[k] : NULL;
}

/* (cl, impl, arch, threads) changed: answers given before are stale. */
static void changed(const struct pph_codelet *cl, unsigned impl, enum pph_arch arch,
		    unsigned threads)
{
	_Atomic unsigned *v = version_of(cl, impl, arch, threads);

	if (v)
		atomic_fetch_add_explicit(v, 1, memory_order_relaxed);
}

/* The model of (cl, impl, arch, threads), created if create; pm.lock held. */
static struct pph_pm_variant *lookup(const struct pph_codelet *cl, unsigned impl,
				     enum pph_arch arch, unsigned threads, int create)
{
	struct cache_slot *slot = slot_of(cl);
	long k = slot ? slot_index(impl, arch, threads) : -1;
	struct pph_pm_variant **pv = k >= 0 ? &slot->variants[k] : NULL;
	struct pph_pm_model *m;

	if (pv && *pv)
		return *pv;
	m = model_get(cl->name);
	if (!m)
		return NULL;
	if (pv) /* with create, cache the new variant; without, only a hit */
		return *pv = variant_get(m, cl->impls[impl].name, arch, threads, create);
	return variant_get(m, cl->impls[impl].name, arch, threads, create);
}

static void cache_clear(void)
{
	size_t i;

	for (i = 0; i < CACHE_SLOTS; i++) {
		free(pm.cache[i].variants);
		free((void *)pm.cache[i].versions);
		pm.cache[i].variants = NULL;
		pm.cache[i].versions = NULL;
		pm.cache[i].cl = NULL;
	}
}

/* ---- recording and prediction ---- */

/* One 64-bit word into the hash state: a multiply and a shift per word
 * (a byte-wise FNV-1a took 8 dependent multiplies, a tenth of submitting
 * a task with one buffer). */
static uint64_t mix_u64(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* A hash of the buffers' shapes: bytes, and a matrix's rows too, since
 * sorting 1024 rows of 16 is not sorting 16 rows of 1024. */
/* mixed in first for a task's work, so that a work never looks like a size
 * of data */
#define PPH_FOOTPRINT_WORK 0x776f726bu /* "work" */

uint32_t pph__task_footprint(const struct pph_task *task, double *size)
{
	uint64_t h = PPH_FOOTPRINT_SEED;
	unsigned i;

	*size = 0;
	if (task->work > 0) {
		/* the call's work in place of its data's bytes: calls on the
		 * same data doing different amounts of work keep apart, and
		 * a regression is fitted to the work */
		uint64_t bits;

		memcpy(&bits, &task->work, sizeof bits);
		*size = task->work;
		h = mix_u64(mix_u64(h, PPH_FOOTPRINT_WORK), bits);
		return (uint32_t)(h ^ (h >> 32));
	}
	for (i = 0; i < task->nbuffers; i++) {
		const struct pph_data *d = task->handles[i];
		uint64_t bytes = pph__data_size(d);

		*size += (double)bytes;
		h = mix_u64(h, bytes);
		if (d->layout == PPH_LAYOUT_MATRIX)
			h = mix_u64(h, d->host.iface.matrix.rows);
	}
	return (uint32_t)(h ^ (h >> 32));
}

/* What a time recorded is. */
enum sample {
	SAMPLE,	       /* given as such: recorded */
	SAMPLE_RUN,    /* a task's run: recorded unless its entry's warm-up */
	SAMPLE_PAID,   /* a run that paid an unmeasured one-time cost: at most
			* its entry's warm-up */
	SAMPLE_REFRESH, /* a run refreshing a stale history: recorded, unless
			 * the entry's warm-up and far slower than its mean */
};

static void record(const struct pph_codelet *cl, unsigned impl, enum pph_arch arch,
		   unsigned threads, uint32_t footprint, double size, double us,
		   enum sample kind)
{
	struct pph_pm_variant *v;
	struct pph_pm_entry *e;

	if (!(us >= 0) || isinf(us))
		return; /* no run time: a NaN would make the mean NaN for good */
	us = fmin(us, PPH_PM_MAX_US);
	pthread_mutex_lock(&pm.lock);
	if ((v = lookup(cl, impl, arch, threads, 1)) &&
	    (e = entry_get(v, footprint, size, 1))) {
		if (kind != SAMPLE && !e->warmed &&
		    (kind != SAMPLE_REFRESH || !e->count || first_run_costs(us, e->mean))) {
			e->warmed = 1;
			e->warmup_us = us;
		} else if (kind == SAMPLE_PAID) {
			; /* its time says nothing of the next runs */
		} else if (is_outlier(e, us)) {
			e->outliers++;
			e->doutliers++;
		} else {
			if (kind != SAMPLE)
				e->warmed = 1; /* a refresh's first run */
			if (e->count && e->firsts == e->count && first_run_costs(e->mean, us))
				/* a history of first runs only, this one a later run */
				e->count = e->firsts = 0, e->mean = e->m2 = e->slowest = 0;
			welford_add(&e->count, &e->mean, &e->m2, us);
			welford_add(&e->dcount, &e->dmean, &e->dm2, us);
			e->slowest = fmax(e->slowest, us);
			e->dslowest = fmax(e->dslowest, us);
			/* a new point of the regression, a calibrated one, or
			 * one whose mean lost its slowest sample */
			if (drop_slowest(e) > 0 || e->count == 1 || e->count == PPH_CALIBRATION_MIN)
				v->reg_dirty = 1;
		}
		changed(cl, impl, arch, threads);
	}
	pthread_mutex_unlock(&pm.lock);
}

void pph__perfmodel_record(const struct pph_codelet *cl, unsigned impl,
			   enum pph_arch arch, unsigned threads, uint32_t footprint,
			   double size, double us)
{
	record(cl, impl, arch, threads, footprint, size, us, SAMPLE);
}

void pph__perfmodel_record_run(const struct pph_codelet *cl, unsigned impl,
			       enum pph_arch arch, unsigned threads, uint32_t footprint,
			       double size, double us, int paid, int refresh)
{
	record(cl, impl, arch, threads, footprint, size, us,
	       paid ? SAMPLE_PAID : refresh ? SAMPLE_REFRESH : SAMPLE_RUN);
}

void pph__perfmodel_prepare(const struct pph_codelet *cl)
{
	struct pph_pm_model *m;
	struct pph_pm_variant *v;

	if (!cl || !cl->name || cl->model == PPH_MODEL_HISTORY)
		return;
	pthread_mutex_lock(&pm.lock);
	for (v = (m = model_get(cl->name)) ? m->variants : NULL; v; v = v->next)
		if (v->reg_dirty)
			pph__perfmodel_fit(v, cl->model != PPH_MODEL_REGRESSION);
	pthread_mutex_unlock(&pm.lock);
}

void pph__perfmodel_record_setup(const struct pph_codelet *cl, unsigned impl,
				 enum pph_arch arch, unsigned threads, unsigned node,
				 double one_time_us)
{
	struct pph_pm_variant *v;

	pthread_mutex_lock(&pm.lock);
	if ((v = lookup(cl, impl, arch, threads, 1)) && !(v->ran_nodes >> node & 1u)) {
		v->ran_nodes |= 1u << node;
		v->setup_us = fmin(fmax(one_time_us, 0), PPH_PM_MAX_US);
		v->setup_measured = 1;
		changed(cl, impl, arch, threads);
	}
	pthread_mutex_unlock(&pm.lock);
}

double pph__perfmodel_setup_us(const struct pph_codelet *cl, unsigned impl,
			       enum pph_arch arch, unsigned threads, unsigned node)
{
	struct pph_pm_variant *v;
	double us = 0;

	pthread_mutex_lock(&pm.lock);
	if ((v = lookup(cl, impl, arch, threads, 0)) && !(v->ran_nodes >> node & 1u))
		us = v->setup_us;
	pthread_mutex_unlock(&pm.lock);
	return us;
}

unsigned long pph__perfmodel_tries(const struct pph_codelet *cl, unsigned impl,
				   enum pph_arch arch, unsigned threads, uint32_t footprint,
				   double size, unsigned long *all, int *warmed)
{
	struct pph_pm_variant *v;
	struct pph_pm_entry *e;
	unsigned long here = 0, total = 0;
	int warm = 0;

	pthread_mutex_lock(&pm.lock);
	v = lookup(cl, impl, arch, threads, 0);
	for (e = v ? v->entries : NULL; e; e = e->next) {
		unsigned long n = (unsigned long)e->warmed + e->dcount + e->doutliers +
				  (pm.calibrate == PPH_CALIBRATE_FORCE ? 0 : e->count - e->dcount);

		total += n;
		if (e->footprint == footprint && e->size == size) {
			here = n;
			warm = e->warmed;
		}
	}
	pthread_mutex_unlock(&pm.lock);
	if (all)
		*all = total;
	if (warmed)
		*warmed = warm;
	return here;
}

struct pph_pm_variant *pph__perfmodel_cpu_variant(const struct pph_codelet *cl, unsigned impl)
{
	struct pph_pm_variant *v;

	pthread_mutex_lock(&pm.lock);
	v = lookup(cl, impl, PPH_ARCH_CPU, 1, 1);
	pthread_mutex_unlock(&pm.lock);
	return v;
}

void pph__perfmodel_each_tiny(void (*fn)(void *arg, const char *codelet, const char *variant,
					 unsigned long runs, unsigned long long ns),
			      void *arg)
{
	struct pph_pm_model *m;
	struct pph_pm_variant *v;
	unsigned long runs;

	pthread_mutex_lock(&pm.lock);
	for (m = pm.models; m; m = m->next)
		for (v = m->variants; v; v = v->next)
			if ((runs = atomic_load_explicit(&v->tiny_runs, memory_order_relaxed)))
				fn(arg, m->codelet, v->name, runs,
				   atomic_load_explicit(&v->tiny_ns, memory_order_relaxed));
	pthread_mutex_unlock(&pm.lock);
}

/* pm.lock held */
static unsigned long samples_of(const struct pph_pm_entry *e)
{
	return pm.calibrate == PPH_CALIBRATE_FORCE ? e->dcount + e->doutliers :
						     e->count + e->outliers;
}

unsigned long pph__perfmodel_samples(const struct pph_codelet *cl, unsigned impl,
				     enum pph_arch arch, unsigned threads, uint32_t footprint,
				     double size)
{
	struct pph_pm_variant *v;
	struct pph_pm_entry *e;
	unsigned long n = 0;

	pthread_mutex_lock(&pm.lock);
	v = lookup(cl, impl, arch, threads, 0);
	if (v && (e = entry_get(v, footprint, size, 0)))
		n = samples_of(e);
	pthread_mutex_unlock(&pm.lock);
	return n;
}

/*
 * Whether a regression may predict size: within twice the range of the
 * sizes its variant ran at.  Further out it is an extrapolation that a
 * change of regime defeats, and nothing would correct it, since a choice
 * predicted slower is not run: lud's trailing update on a team of 2, fitted
 * on works up to 384 x 384 where one thread is as fast (the matrix fits
 * one core's L2), predicted 5.0 ms for the first work at 768, where one
 * thread took 3.3, and was never tried there.  A size out of range is
 * explored; its warm-up run widens the range at once.  CPU variants only:
 * a device's first run in a process pays its setup, which dmda weighs
 * against the call (worth_its_setup), so a device variant unpredicted at a
 * new size would not be tried there; its regression, with the setup and
 * the copies added, is what lets dmda split a call across CPU and device.
 */
static int within_range(const struct pph_pm_variant *v, double size)
{
	if (v->arch != PPH_ARCH_CPU && v->arch != PPH_ARCH_OPENMP)
		return 1;
	return size <= 2 * v->size_hi && size >= 0.5 * v->size_lo;
}

double pph__perfmodel_predict(const struct pph_codelet *cl, unsigned impl,
			      enum pph_arch arch, unsigned threads,
			      uint32_t footprint, double size)
{
	unsigned long samples;

	return pph__perfmodel_predict_n(cl, impl, arch, threads, footprint, size, &samples);
}

/* The prediction of variant v of cl (NULL: none yet); pm.lock held. */
static double predict_locked(const struct pph_codelet *cl, struct pph_pm_variant *v,
			     uint32_t footprint, double size, unsigned long *samples)
{
	struct pph_pm_entry *e = v ? entry_get(v, footprint, size, 0) : NULL;
	double t = -1;

	*samples = e ? samples_of(e) : 0;
	if (v && v->reg_dirty && cl->model != PPH_MODEL_HISTORY)
		pph__perfmodel_fit(v, cl->model != PPH_MODEL_REGRESSION);
	if (v && v->reg.valid && pm.calibrate != PPH_CALIBRATE_FORCE &&
	    (cl->model == PPH_MODEL_REGRESSION || cl->model == PPH_MODEL_NL_REGRESSION)) {
		t = v->reg.a * pow(size, v->reg.b) + v->reg.c;
	} else if (e && (pm.calibrate == PPH_CALIBRATE_FORCE ? e->dcount : e->count) >=
			 PPH_CALIBRATION_MIN) {
		t = e->mean;
	} else if (v && pm.calibrate != PPH_CALIBRATE_FORCE &&
		   cl->model == PPH_MODEL_DEFAULT && v->reg.valid && !(e && e->warmed) &&
		   ((e && e->count) || within_range(v, size))) {
		/* a size not yet calibrated, once the sizes measured fit: the
		 * regression, or what it was measured at where that is less.
		 * Not the measure alone: one slowed run (nw's work of 9 blocks,
		 * 17.8 us where its neighbours took 8.5 and 11.8) would keep
		 * the choice from that size for good, since it is only measured
		 * again when chosen.  Not one this process has run already: it
		 * recurs, so it is calibrated (a call whose work changes each
		 * time, or a size met once a run, is not) */
		t = v->reg.a * pow(size, v->reg.b) + v->reg.c;
		if (e && e->count && e->mean < t)
			t = e->mean;
	}
	/* a regression far from its points (a tiny size and b < 0) can give
	 * inf or NaN: the scheduler adds predictions up, so they stay finite */
	if (isnan(t))
		return -1;
	return fmin(t, PPH_PM_MAX_US);
}

double pph__perfmodel_predict_n(const struct pph_codelet *cl, unsigned impl,
				enum pph_arch arch, unsigned threads, uint32_t footprint,
				double size, unsigned long *samples)
{
	double t;

	pthread_mutex_lock(&pm.lock);
	t = predict_locked(cl, lookup(cl, impl, arch, threads, 0), footprint, size, samples);
	pthread_mutex_unlock(&pm.lock);
	return t;
}

void pph__perfmodel_predict_all(const struct pph_codelet *cl, uint32_t footprint, double size,
				struct pph_pm_ask *asks, unsigned n)
{
	unsigned i;

	pthread_mutex_lock(&pm.lock);
	for (i = 0; i < n; i++) {
		struct pph_pm_ask *a = &asks[i];
		struct pph_pm_variant *v;

		if (pph__perfmodel_ask_fresh(a))
			continue;
		v = lookup(cl, a->impl, a->arch, a->threads, 0);
		a->version = version_of(cl, a->impl, a->arch, a->threads);
		a->seen = a->version ? atomic_load_explicit(a->version, memory_order_relaxed) : 0;
		a->us = predict_locked(cl, v, footprint, size, &a->samples);
		a->setup_us = v ? v->setup_us : 0;
		a->ran_nodes = v ? v->ran_nodes : 0;
	}
	pthread_mutex_unlock(&pm.lock);
}

double pph__perfmodel_regression(const struct pph_codelet *cl, unsigned impl,
				 enum pph_arch arch, unsigned threads, double size)
{
	struct pph_pm_variant *v;
	double t = -1;

	if (cl->model == PPH_MODEL_HISTORY)
		return -1;
	pthread_mutex_lock(&pm.lock);
	v = lookup(cl, impl, arch, threads, 0);
	if (v && v->reg_dirty)
		pph__perfmodel_fit(v, cl->model != PPH_MODEL_REGRESSION);
	if (v && v->reg.valid)
		t = v->reg.a * pow(size, v->reg.b) + v->reg.c;
	pthread_mutex_unlock(&pm.lock);
	return isfinite(t) ? t : -1;
}

/* ---- files ---- */

static int parse_arch(const char *s, enum pph_arch *arch)
{
	unsigned a;

	for (a = 0; a < PPH_ARCH_COUNT; a++)
		if (strcmp(s, pph_arch_name((enum pph_arch)a)) == 0) {
			*arch = (enum pph_arch)a;
			return 0;
		}
	return -1;
}

/*
 * Values a history can hold.  Everything read is checked here, so that
 * what the scheduler adds up stays finite: a count of -1 (read by %lu as
 * the largest count), a mean of 1e308 or inf, a negative or NaN number.
 * A size is the call's data in bytes, as recorded: 2^64 and more, should
 * a program register SIZE_MAX bytes (a library's length of -1 converted).
 */
static int sane_entry(const struct pph_pm_entry *e)
{
	return e->count <= PPH_PM_MAX_COUNT && e->outliers <= PPH_PM_MAX_COUNT &&
	       e->firsts <= e->count &&
	       e->mean >= 0 && e->mean <= PPH_PM_MAX_US && e->m2 >= 0 && isfinite(e->m2) &&
	       e->slowest >= 0 && e->slowest <= PPH_PM_MAX_US &&
	       e->size >= 0 && isfinite(e->size);
}

/* Parse one line into m; returns -1 if malformed, -ENOMEM where memory ran
 * out (the file may be fine: not said to be corrupt). */
static int parse_line(struct pph_pm_model *m, struct pph_pm_variant **cur,
		      const char *line, int lineno)
{
	char word[16], name[256], arch[16];
	struct pph_pm_entry e = { 0 };
	unsigned fp, threads = 1;

	/* before the comments are skipped: a file whose first line is one
	 * (or blank) is not a model of this format */
	if (lineno == 1)
		return strcmp(line, "peppher-perfmodel 1") == 0 ? 0 : -1;
	if (sscanf(line, "%15s", word) != 1 || word[0] == '#')
		return 0;
	if (strcmp(word, "codelet") == 0) {
		if (m->codelet || sscanf(line, "codelet %255s", name) != 1)
			return -1;
		return (m->codelet = strdup(name)) ? 0 : -ENOMEM;
	}
	if (strcmp(word, "variant") == 0) {
		enum pph_arch a;

		if (sscanf(line, "variant %255s %15s %u", name, arch, &threads) < 2 ||
		    parse_arch(arch, &a) != 0 || threads < 1 || threads > PPH_MAX_WORKERS)
			return -1;
		/* a file with more variants than any codelet has is not ours,
		 * and each would be looked for among all the others */
		if (++m->nvariants > PPH_PM_MAX_VARIANTS)
			return -1;
		*cur = variant_get(m, name, a, threads, 1);
		if (!*cur)
			return -ENOMEM;
		(*cur)->reg_dirty = 1;
		return 0;
	}
	if (strcmp(word, "setup") == 0 && *cur)
		return sscanf(line, "setup %lf", &(*cur)->setup_us) == 1 &&
		       (*cur)->setup_us >= 0 && (*cur)->setup_us <= PPH_PM_MAX_US ? 0 : -1;
	if (strcmp(word, "entry") == 0 && *cur) {
		struct pph_pm_entry *n;
		/* FIRSTS and SLOWEST are absent from older files */
		int got = sscanf(line, "entry %x %lf %lu %lf %lf %lu %lu %lf", &fp, &e.size,
				 &e.count, &e.mean, &e.m2, &e.outliers, &e.firsts,
				 &e.slowest);

		if (got < 6 || !sane_entry(&e))
			return -1;
		if (!(n = entry_get(*cur, fp, e.size, 1)))
			return -ENOMEM;
		/* an entry written twice (a hand edit, files joined) holds
		 * the samples of both lines */
		welford_merge(&n->count, &n->mean, &n->m2, e.count, e.mean, e.m2);
		n->outliers += e.outliers;
		n->firsts += e.firsts;
		n->slowest = fmax(n->slowest, e.slowest);
		return sane_entry(n) ? 0 : -1;
	}
	return -1;
}

/*
 * The model in the file at path, or NULL, and then in *err why (empty for
 * a file not there: a model not stored yet).  Lines may end in blanks or
 * "\r\n" (a file edited elsewhere); a last line without its newline is a
 * file cut short (every line written ends in one).
 */
static struct pph_pm_model *model_read(const char *path, struct read_error *err)
{
	FILE *fp = fopen(path, "r");
	struct pph_pm_model *m;
	struct pph_pm_variant *cur = NULL;
	char line[1024];
	int lineno = 0, rc = 0;
	const char *why = NULL;
	struct stat st;

	err->why[0] = '\0';
	err->corrupt = 0;
	/* each says the real cause, not a corrupt file */
	if (!fp) {
		if (errno != ENOENT)
			snprintf(err->why, sizeof(err->why), "%s: cannot read it: %s", path,
				 strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err->why, sizeof(err->why), "%s: is a directory, not a performance model",
			 path);
		fclose(fp);
		return NULL;
	}
	if (!(m = calloc(1, sizeof(*m))))
		snprintf(err->why, sizeof(err->why), "%s: cannot read it: out of memory", path);
	while (m && fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);

		lineno++;
		/* fgets stops at a newline, at the end of the file or with
		 * the buffer full: a line shorter than that holds a NUL */
		if (!len || line[len - 1] != '\n')
			why = feof(fp) ? "cut short" :
			      len < sizeof(line) - 1 ? "holds a NUL byte" : "line too long";
		while (len && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		if (!why && (rc = parse_line(m, &cur, line, lineno)) != 0)
			why = rc == -ENOMEM ? "cannot read it: out of memory" :
					      "corrupt performance model";
		if (why) {
			snprintf(err->why, sizeof(err->why), "%s:%d: %s", path, lineno, why);
			err->corrupt = rc != -ENOMEM;
			pph__perfmodel_free(m);
			m = NULL;
		}
	}
	if (m && ferror(fp)) {
		snprintf(err->why, sizeof(err->why), "%s: cannot read it: %s", path,
			 strerror(errno));
		pph__perfmodel_free(m);
		m = NULL;
	}
	fclose(fp);
	if (m && !m->codelet) {
		snprintf(err->why, sizeof(err->why),
			 "%s: corrupt performance model (no codelet line)", path);
		err->corrupt = 1;
		pph__perfmodel_free(m);
		m = NULL;
	}
	return m;
}

/* model_read, and a model of another codelet than the one asked for is
 * corrupt: its codelet line names where it is written back. */
static struct pph_pm_model *read_codelet(const char *codelet, const char *path,
					 struct read_error *err)
{
	struct pph_pm_model *m = model_read(path, err);

	if (m && strcmp(m->codelet, codelet) != 0) {
		snprintf(err->why, sizeof(err->why), "%s: model of codelet '%s', not '%s'", path,
			 m->codelet, codelet);
		err->corrupt = 1;
		pph__perfmodel_free(m);
		m = NULL;
	}
	return m;
}

/*
 * The model stored for codelet at path, or NULL: not stored yet, or not
 * read, err->why then saying why.  A file that is corrupt, or holds
 * another codelet's model, would be replaced at the next save, every
 * variant's history lost: it is kept aside first, as PATH.corrupt (an
 * older one replaced), err->aside saying so, under the codelet's lock
 * (locked: the caller holds it; else it is taken, and the file read again
 * under it, since another process may have replaced it meanwhile).
 * err->keep: a file there that was neither read nor kept aside, which must
 * not be replaced.
 */
static struct pph_pm_model *stored_read(const char *codelet, const char *path, int locked,
					struct read_error *err)
{
	struct pph_pm_model *m = read_codelet(codelet, path, err);
	int fd = -1;

	err->aside[0] = '\0';
	err->kept_errno = 0;
	if (!m && err->corrupt && !locked) {
		fd = lock_stored(codelet, "it is kept aside without its lock");
		m = read_codelet(codelet, path, err);
	}
	if (!m && err->corrupt) {
		snprintf(err->aside, sizeof(err->aside), "%s.corrupt", path);
		if (rename(path, err->aside) != 0) {
			err->kept_errno = errno;
			err->aside[0] = '\0';
		}
	}
	if (fd >= 0)
		close(fd);
	err->keep = err->why[0] && !err->aside[0];
	return m;
}

struct pph_pm_model *pph__perfmodel_read(const char *path)
{
	struct read_error *err = malloc(sizeof(*err));
	struct pph_pm_model *m = err ? model_read(path, err) : NULL;

	if (!err)
		fprintf(stderr, "peppher: warning: %s: cannot read it: out of memory\n", path);
	else if (err->why[0])
		fprintf(stderr, "peppher: warning: %s\n", err->why);
	free(err);
	return m;
}

void pph__perfmodel_write(FILE *fp, const struct pph_pm_model *m)
{
	const struct pph_pm_variant *v;
	const struct pph_pm_entry *e;

	fprintf(fp, "peppher-perfmodel 1\n");
	fprintf(fp, "# entry FOOTPRINT SIZE_BYTES COUNT MEAN_US M2 OUTLIERS FIRSTS SLOWEST_US\n");
	fprintf(fp, "# setup US: one-time cost of the variant's first run on a device\n");
	fprintf(fp, "codelet %s\n", m->codelet);
	for (v = m->variants; v; v = v->next) {
		if (v->threads > 1)
			fprintf(fp, "variant %s %s %u\n", v->name, pph_arch_name(v->arch),
				v->threads);
		else
			fprintf(fp, "variant %s %s\n", v->name, pph_arch_name(v->arch));
		if (v->setup_us > 0)
			fprintf(fp, "setup %.17g\n", v->setup_us);
		for (e = v->entries; e; e = e->next)
			fprintf(fp, "entry %08x %.17g %lu %.17g %.17g %lu %lu %.17g\n",
				e->footprint, e->size, e->count, e->mean, e->m2,
				e->outliers, e->firsts, e->slowest);
	}
}

void pph__perfmodel_free(struct pph_pm_model *m)
{
	struct pph_pm_variant *v, *vn;
	struct pph_pm_entry *e, *en;

	if (!m)
		return;
	for (v = m->variants; v; v = vn) {
		vn = v->next;
		for (e = v->entries; e; e = en) {
			en = e->next;
			free(e);
		}
		free(v->index);
		free(v->name);
		free(v);
	}
	free(m->codelet);
	free(m);
}

/* Fold this process's samples of ours into disk (what is on disk now). */
static void merge_into(struct pph_pm_model *disk, const struct pph_pm_model *ours)
{
	const struct pph_pm_variant *v;
	const struct pph_pm_entry *e;

	for (v = ours->variants; v; v = v->next) {
		struct pph_pm_variant *dv = variant_get(disk, v->name, v->arch, v->threads, 1);

		if (dv && v->setup_measured)
			dv->setup_us = v->setup_us;
		for (e = v->entries; dv && e; e = e->next) {
			struct pph_pm_entry *de;
			/* the process's only run of the entry: its warm-up */
			int lone = !e->dcount && !e->doutliers && e->warmed;

			if (!e->dcount && !e->doutliers && !lone)
				continue;
			de = entry_get(dv, e->footprint, e->size, 1);
			if (!de)
				continue;
			if (!lone) {
				if (e->dcount && de->count && de->firsts == de->count &&
				    first_run_costs(de->mean, e->dmean))
					de->count = de->firsts = 0, de->mean = de->m2 = 0,
					de->slowest = 0;
				welford_merge(&de->count, &de->mean, &de->m2,
					      e->dcount, e->dmean, e->dm2);
				de->outliers += e->doutliers;
				de->slowest = fmax(de->slowest, e->dslowest);
				/* this process's, in de now: known to drop_slowest */
				de->dslowest = e->dslowest;
				drop_slowest(de);
			} else if (de->count > de->firsts &&
				   first_run_costs(e->warmup_us, de->mean)) {
				/* not a sample of the history's runs: left out */
				de->outliers++;
			} else if (is_outlier(de, e->warmup_us)) {
				de->outliers++;
			} else {
				welford_add(&de->count, &de->mean, &de->m2, e->warmup_us);
				de->slowest = fmax(de->slowest, e->warmup_us);
				de->dslowest = e->warmup_us;
				/* counted among the first runs unless left out */
				if (drop_slowest(de) != e->warmup_us)
					de->firsts = de->firsts < de->count ? de->firsts + 1 :
									      de->count;
			}
		}
	}
}

int pph__file_replace(const char *path, void (*write)(FILE *, const void *),
		      const void *arg)
{
	char *tmp;
	FILE *fp;
	int rc = 0;

	if (asprintf(&tmp, "%s" PPH_TMP_INFIX "%ld", path, (long)getpid()) < 0)
		return -ENOMEM;
	fp = fopen(tmp, "w");
	if (!fp) {
		rc = -errno;
		free(tmp);
		return rc;
	}
	write(fp, arg);
	if (ferror(fp) | fclose(fp) || rename(tmp, path) != 0) {
		rc = errno ? -errno : -EIO;
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

static void write_model(FILE *fp, const void *m)
{
	pph__perfmodel_write(fp, m);
}

/*
 * A process that died between writing NAME.tmp.PID and renaming it left
 * that file behind: remove those of processes that no longer exist (the
 * folder is this host's, so a PID is one of this host's).
 */
static void remove_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *infix = strstr(e->d_name, PPH_TMP_INFIX);
		char *end, *path;
		long pid;

		if (!infix)
			continue;
		errno = 0;
		pid = strtol(infix + strlen(PPH_TMP_INFIX), &end, 10);
		if (errno || *end || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) >= 0) {
			unlink(path);
			free(path);
		}
	}
	closedir(d);
}

/* Take the lock that a codelet's model file is read, merged and written
 * under: its descriptor (close it to let go), or -1 (then unlocked, and
 * said, unlocked saying what goes on without it). */
static int lock_stored(const char *codelet, const char *unlocked)
{
	char *lock = pph__perfmodel_path(pm.dir, codelet, "lock");
	int fd = lock ? open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1, why = errno;

	/* the write goes on (what this process measured is not lost), but
	 * two processes may merge at once, one's samples lost: said (a
	 * directory there let them merge unlocked, silently).  Not where
	 * the folder cannot be written (read-only): what would go on
	 * unlocked cannot either, and says so */
	if (lock && fd < 0 && access(pm.dir, W_OK) == 0)
		fprintf(stderr, "peppher: warning: cannot lock %s: %s; %s\n", lock, strerror(why),
			unlocked);
	/* a signal must not let two writers in at once */
	while (fd >= 0 && flock(fd, LOCK_EX) != 0 && errno == EINTR)
		;
	free(lock);
	return fd;
}

/* PEPPHER_CALIBRATE=2: remove the codelet's stored model at its first use,
 * as peppher-perfmodel reset does, so that what other processes store
 * from then on is merged with this one's samples, not lost at its end. */
static void stored_reset(const char *codelet)
{
	char *path = pph__perfmodel_path(pm.dir, codelet, "model");
	int fd = lock_stored(codelet, "the model is removed without its lock");

	if (path && unlink(path) != 0 && errno != ENOENT)
		fprintf(stderr, "peppher: warning: PEPPHER_CALIBRATE=2: cannot remove %s: %s\n",
			path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
}

static void flush_model(const struct pph_pm_model *m)
{
	char *path = pph__perfmodel_path(pm.dir, m->codelet, "model");
	struct pph_pm_model *disk = NULL;
	struct read_error *err = malloc(sizeof(*err));
	int fd = -1, rc;

	if (!path || !err) {
		fprintf(stderr, "peppher: warning: cannot save the model of %s: out of memory\n",
			m->codelet);
		goto out;
	}
	fd = lock_stored(m->codelet, "the model is merged without its lock");
	/* a file that was corrupt when this process first read it was
	 * said, and kept aside, then: only one made since is said here */
	disk = stored_read(m->codelet, path, 1, err);
	if (err->aside[0])
		fprintf(stderr, "peppher: warning: %s; kept as %s, replaced by this process's samples\n",
			err->why, err->aside);
	if (err->keep) {
		/* neither read nor kept aside: replaced, it would be lost */
		if (!m->unsaved_said)
			fprintf(stderr, "peppher: warning: %s: left as it is (%s%s): this process's samples of %s are not saved\n",
				path, err->corrupt ? "cannot keep it aside: " : "cannot read it",
				err->corrupt ? strerror(err->kept_errno) : "", m->codelet);
		goto unlock;
	}
	if (!disk)
		disk = model_new(m->codelet);
	if (disk) {
		merge_into(disk, m);
		if ((rc = pph__file_replace(path, write_model, disk)) != 0)
			fprintf(stderr, "peppher: warning: cannot write %s: %s\n",
				path, strerror(-rc));
	}
unlock:
	pph__perfmodel_free(disk);
	if (fd >= 0)
		close(fd); /* releases the lock */
out:
	free(err);
	free(path);
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -errno : 0;
}

/* HOME names where ~/.peppher goes only when it is an absolute path to a
 * folder that exists: HOME unset, "" or "x" would create folders in the
 * working directory, and a mistyped one a whole tree. */
static int home_usable(const char *home)
{
	struct stat st;

	return home && home[0] == '/' && stat(home, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The models folder the environment names, or NULL; say: a HOME of no
 * use is said (once a process), as the runtime's (the tool says its own). */
static char *dir_of_env(int say)
{
	static atomic_int warned;
	const char *home = getenv("PEPPHER_HOME"), *user = getenv("HOME");
	char host[256] = "localhost", *dir, *p;

	gethostname(host, sizeof(host) - 1);
	for (p = host; *p; p++)
		if (*p == '/')
			*p = '_';
	if (home && *home)
		return asprintf(&dir, "%s/perfmodels/%s", home, host) < 0 ? NULL : dir;
	if (!home_usable(user)) {
		if (say && !atomic_exchange(&warned, 1))
			fprintf(stderr, "peppher: warning: HOME=%s is not an absolute path to an existing folder and PEPPHER_HOME is not set: performance models will not be saved\n",
				user ? user : "(unset)");
		return NULL;
	}
	return asprintf(&dir, "%s/.peppher/perfmodels/%s", user, host) < 0 ? NULL : dir;
}

/* While the runtime is up, the folder pph__perfmodel_init settled on:
 * NULL where it could not be made, said once then (the transfer model,
 * stored beside the performance models, said it again: "cannot write
 * .../transfers: Not a directory" after "cannot create ..."). */
char *pph__perfmodel_dir(void)
{
	char *dir = NULL;
	int settled;

	pthread_mutex_lock(&pm.lock);
	settled = pm.dir_settled;
	if (settled && pm.dir)
		dir = strdup(pm.dir);
	pthread_mutex_unlock(&pm.lock);
	return settled ? dir : dir_of_env(0);
}

int pph__perfmodel_init(void)
{
	const char *cal = getenv("PEPPHER_CALIBRATE");
	int rc;

	if (!cal || !*cal || strcmp(cal, "0") == 0)
		pm.calibrate = PPH_CALIBRATE_KEEP;
	else if (strcmp(cal, "1") == 0)
		pm.calibrate = PPH_CALIBRATE_FORCE;
	else if (strcmp(cal, "2") == 0)
		pm.calibrate = PPH_CALIBRATE_RESET;
	else
		return -EINVAL; /* pph_init says why */
	pm.dir = dir_of_env(1);
	if (pm.dir && (rc = mkdir_p(pm.dir)) != 0) {
		fprintf(stderr, "peppher: warning: cannot create %s: %s: performance models will not be saved\n",
			pm.dir, strerror(-rc));
		free(pm.dir);
		pm.dir = NULL;
	}
	if (pm.dir)
		remove_stale_tmp(pm.dir);
	pthread_mutex_lock(&pm.lock);
	pm.dir_settled = 1;
	pthread_mutex_unlock(&pm.lock);
	return 0;
}

void pph__perfmodel_shutdown(void)
{
	struct pph_pm_model *m, *next;

	pthread_mutex_lock(&pm.lock);
	for (m = pm.models; m; m = next) {
		next = m->next;
		if (pm.dir)
			flush_model(m);
		pph__perfmodel_free(m);
	}
	pm.models = NULL;
	cache_clear();
	free(pm.dir);
	pm.dir = NULL;
	pm.dir_settled = 0;
	pthread_mutex_unlock(&pm.lock);
}
