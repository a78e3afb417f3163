/*
 * Performance models: the history of each (codelet, variant, architecture,
 * team size, data-shape footprint) as count, mean and deviation of run times, plus
 * regressions a*n^b and a*n^b+c over the sizes seen, to predict sizes not
 * seen yet.  Models are kept per codelet in text files under
 * $PEPPHER_HOME/perfmodels/HOST/ (format in perfmodel.c), read at first
 * use and merged back at shutdown.
 */
#ifndef PEPPHER_PERFMODEL_H
#define PEPPHER_PERFMODEL_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include <peppher/runtime.h>

/* Samples at a footprint before its mean is trusted. */
#define PPH_CALIBRATION_MIN 3

/* What a model may hold: a file with more is corrupt (a count of -1 reads
 * as the largest unsigned long), and a prediction is never above
 * PPH_PM_MAX_US, so that the scheduler's sums stay finite. */
#define PPH_PM_MAX_COUNT (1ul << 40)
#define PPH_PM_MAX_US 1e12
/* Variant lines a model file may hold (variants x architectures x team sizes). */
#define PPH_PM_MAX_VARIANTS 4096

enum pph_calibrate {
	PPH_CALIBRATE_KEEP,  /* use stored models, keep learning (default) */
	PPH_CALIBRATE_FORCE, /* explore every variant again in this process */
	PPH_CALIBRATE_RESET, /* ignore stored models and replace them */
};

struct pph_pm_entry {
	uint32_t footprint;
	double size; /* bytes of data the task accessed */
	unsigned long count;
	double mean, m2;	 /* Welford: microseconds */
	unsigned long outliers;	 /* samples left out of the mean */
	unsigned long firsts;	 /* of count, a process's only run (see warmed) */
	unsigned long dcount;	 /* samples of this process, merged at flush */
	unsigned long doutliers; /* outliers of this process, merged at flush */
	double dmean, dm2;
	/* the slowest sample of count since the last one left out as an
	 * outlier (0: not known, a file from before), and of dcount: left
	 * out once far above the others (perfmodel.c, drop_slowest) */
	double slowest, dslowest;
	/* a run of this process came first and was held back: the first
	 * run of a process pays one-time costs (page faults of fresh
	 * buffers, lazy initialisations) that later runs do not.  Should
	 * it stay the process's only run of the entry, its time is saved
	 * (merge_into): a call made once per run pays those costs every
	 * run, and would otherwise never be calibrated.  Counted in firsts:
	 * such runs are kept apart from a history of later runs (see
	 * first_run_costs). */
	int warmed;
	double warmup_us;
	struct pph_pm_entry *next;
};

struct pph_pm_regression {
	int valid;
	double a, b, c; /* t = a * size^b + c, microseconds */
	unsigned npoints;
};

struct pph_pm_variant {
	char *name;
	enum pph_arch arch;
	unsigned threads; /* CPU team size of a fork-join variant, else 1 */
	struct pph_pm_entry *entries;
	struct pph_pm_regression reg;
	int reg_dirty;
	/* One-time cost of its first run on a device in a process (its
	 * OpenCL program built), as measured the last time: the scheduler
	 * adds it to a prediction on a device it has not run on yet in this
	 * process.  Saved in its file (a "setup" line). */
	double setup_us;
	int setup_measured; /* in this process: replaces the file's at flush */
	unsigned ran_nodes; /* bit n: it ran on memory node n in this process */
	struct pph_pm_variant *next;
	/* entries by footprint, open addressing (NULL: none yet; built
	 * from the list at the first lookup): a model of 200,000 sizes
	 * loads in linear time, and a prediction does not walk them */
	struct pph_pm_entry **index;
	size_t index_cap, nentries;
	/* the smallest and largest size it has run at (an entry exists:
	 * counted, loaded or this process's warm-up), the range over which
	 * its regression is trusted (see pph__perfmodel_predict) */
	double size_lo, size_hi;
	/* its tiny runs in place in this process (submit.c), counted
	 * without the lock, for the statistics: runs, and nanoseconds
	 * estimated from the timed ones */
	atomic_ulong tiny_runs;
	atomic_ullong tiny_ns;
};

struct pph_pm_model {
	char *codelet;
	struct pph_pm_variant *variants;
	struct pph_pm_model *next;
	unsigned nvariants; /* variant lines read from its file */
	/* its file, corrupt, could not be kept aside, and was left as it
	 * is: said when read (flush says it otherwise) */
	int unsaved_said;
};

/* Set up from PEPPHER_HOME and PEPPHER_CALIBRATE.  Returns 0 or -EINVAL. */
int pph__perfmodel_init(void);
/* Merge this process's samples into the files, then free everything. */
void pph__perfmodel_shutdown(void);

/* Footprint of the data sizes a task accesses, and their total bytes. */
uint32_t pph__task_footprint(const struct pph_task *task, double *size);
#define PPH_FOOTPRINT_SEED 0xcbf29ce484222325ull
/* What it returns for a task without data (submission skips the call). */
#define PPH_FOOTPRINT_NO_DATA ((uint32_t)(PPH_FOOTPRINT_SEED ^ (PPH_FOOTPRINT_SEED >> 32)))

/* Record one run of microseconds, on a worker of arch; threads is the
 * team size a fork-join variant ran with, 1 for every other variant. */
void pph__perfmodel_record(const struct pph_codelet *cl, unsigned impl,
			   enum pph_arch arch, unsigned threads, uint32_t footprint,
			   double size, double us);

/* The same for a run of a task, its measured one-time costs (an OpenCL
 * program built) already taken out of us: the first run of each entry in
 * this process is its warm-up, held back (see warmed); a later run that
 * paid a one-time cost no one measured (paid: OpenMP threads started) is
 * not a sample.  A run the scheduler chose to refresh a stale history
 * (refresh) is a sample even as the first, unless far slower than the
 * history (first-run costs): else each refresh would take two runs. */
void pph__perfmodel_record_run(const struct pph_codelet *cl, unsigned impl,
			       enum pph_arch arch, unsigned threads, uint32_t footprint,
			       double size, double us, int paid, int refresh);

/* After a run on device memory node (not 0), what it paid once (us): its
 * first there in this process gives the variant's setup cost. */
void pph__perfmodel_record_setup(const struct pph_codelet *cl, unsigned impl,
				 enum pph_arch arch, unsigned threads, unsigned node,
				 double one_time_us);

/* What a run on device memory node would pay before its first in this
 * process: the setup cost last measured, or 0. */
double pph__perfmodel_setup_us(const struct pph_codelet *cl, unsigned impl,
			       enum pph_arch arch, unsigned threads, unsigned node);

/* The model of cl's variant impl run on one CPU thread, created if need
 * be (NULL: out of memory): where submit.c counts its tiny runs. */
struct pph_pm_variant *pph__perfmodel_cpu_variant(const struct pph_codelet *cl, unsigned impl);

/* fn(arg, codelet, variant, runs, ns) for each variant with tiny runs in
 * this process. */
void pph__perfmodel_each_tiny(void (*fn)(void *arg, const char *codelet, const char *variant,
					 unsigned long runs, unsigned long long ns),
			      void *arg);

/* Load cl's model now and fit its regressions (pph_codelet_declare). */
void pph__perfmodel_prepare(const struct pph_codelet *cl);

/* How many runs of this process, warm-up included, or stored that the
 * calibration counts: the scheduler tries the least tried variant first.
 * With all non-NULL, *all counts them over every footprint of the variant:
 * among variants as little tried at this footprint, the least tried
 * overall goes first (a call whose work is new each time, pph_call_work,
 * then tries each variant in turn, not the same one at each new work).
 * With warmed non-NULL, *warmed says whether this process has run it at
 * this footprint already (its warm-up is behind it: its next run is a
 * sample). */
unsigned long pph__perfmodel_tries(const struct pph_codelet *cl, unsigned impl,
				   enum pph_arch arch, unsigned threads, uint32_t footprint,
				   double size, unsigned long *all, int *warmed);

/* Runs measured at this footprint (stored and this process's), outliers
 * included: once a variant's regression holds, a footprint with fewer
 * than PPH_CALIBRATION_MIN samples is predicted all the same (see
 * predict); the scheduler may try it again. */
unsigned long pph__perfmodel_samples(const struct pph_codelet *cl, unsigned impl,
				     enum pph_arch arch, unsigned threads, uint32_t footprint,
				     double size);

/* Expected microseconds, or a negative value when the variant still needs
 * calibration at this footprint (the scheduler should try it). */
double pph__perfmodel_predict(const struct pph_codelet *cl, unsigned impl,
			      enum pph_arch arch, unsigned threads,
			      uint32_t footprint, double size);

/* pph__perfmodel_predict, and what pph__perfmodel_samples gives in
 * *samples, from one lookup: the scheduler asks both at every push. */
double pph__perfmodel_predict_n(const struct pph_codelet *cl, unsigned impl,
				enum pph_arch arch, unsigned threads, uint32_t footprint,
				double size, unsigned long *samples);

/* Several of pph__perfmodel_predict_n's answers for one task, with what
 * pph__perfmodel_setup_us needs, under one lock: a choice of dmda's asks
 * up to 9 (on the H100 machine's 16 cores a choice among CPU, OpenMP,
 * OpenCL and CUDA variants cost 2.5-3 us, one among CPU variants 1). */
struct pph_pm_ask {
	unsigned impl;		/* asked: */
	enum pph_arch arch;
	unsigned threads;
	double us;		/* answered: the prediction, or -1 */
	unsigned long samples;
	double setup_us;	/* the setup a node not in ran_nodes pays */
	unsigned ran_nodes;
	/* the variant's count of changes, and its value when answered (NULL:
	 * none kept, asked each time) */
	const _Atomic unsigned *version;
	unsigned seen;
};
/* An ask answered before whose variant has not changed since
 * (pph__perfmodel_ask_fresh) is left as it is: a chain of calls runs one
 * variant, whose samples change its prediction alone. */
void pph__perfmodel_predict_all(const struct pph_codelet *cl, uint32_t footprint, double size,
				struct pph_pm_ask *asks, unsigned n);

/* Does an answered ask still hold: its variant recorded nothing since.
 * Without the models' lock: a change under way is seen at the next ask,
 * as if this one had been asked just before it. */
static inline int pph__perfmodel_ask_fresh(const struct pph_pm_ask *a)
{
	return a->version &&
	       atomic_load_explicit(a->version, memory_order_relaxed) == a->seen;
}

/* The variant's regression over the sizes it ran at, at size, wherever
 * size lies; negative without one (too few sizes measured, or a codelet
 * modelled by history alone).  For the slope of a time against size: a
 * hybrid split's line (wrappers.c). */
double pph__perfmodel_regression(const struct pph_codelet *cl, unsigned impl,
				 enum pph_arch arch, unsigned threads, double size);

/* ---- file format, shared with the peppher-perfmodel tool ---- */

/* Folder holding this host's models (malloc'ed), from PEPPHER_HOME, else
 * $HOME/.peppher; NULL when HOME is not an existing absolute folder:
 * models are then neither read nor saved.  While the runtime is up, the
 * folder pph__perfmodel_init made, NULL where it could not (said once by
 * pph__perfmodel_init, as a HOME of no use is). */
char *pph__perfmodel_dir(void);
/* DIR/CODELET.EXT (malloc'ed), the codelet's name escaped so that the
 * file stays a plain file in dir whatever the name holds ('/', "..",
 * anything but letters, digits and '_' become %XX). */
char *pph__perfmodel_path(const char *dir, const char *codelet, const char *ext);
/* Parse a model file; NULL with a warning on stderr if it is corrupt,
 * NULL silently if it does not exist. */
struct pph_pm_model *pph__perfmodel_read(const char *path);
/* Replace the file at path with what write(fp, arg) writes: written to
 * PATH.tmp.PID, then renamed.  Returns 0 or -errno.  pph__perfmodel_init
 * removes the PATH.tmp.PID files of processes that died in between. */
#define PPH_TMP_INFIX ".tmp."
int pph__file_replace(const char *path, void (*write)(FILE *, const void *),
		      const void *arg);
/* Write a model in the text format. */
void pph__perfmodel_write(FILE *fp, const struct pph_pm_model *m);
void pph__perfmodel_free(struct pph_pm_model *m);
/* Fit v->reg to v's history: a*n^b, and a*n^b+c with_constant. */
void pph__perfmodel_fit(struct pph_pm_variant *v, int with_constant);

#endif
