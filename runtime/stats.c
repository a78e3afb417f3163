/* Per-worker statistics: tasks, busy time, and which variants ran where. */
#include <stdlib.h>

#include "internal.h"
#include "perfmodel.h"

/* What application threads ran themselves, tiny tasks apart (those are
 * counted in their variant's model, perfmodel.h's tiny_runs, without a
 * lock): at submission, or in a worker's place. */
static pthread_mutex_t app_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long app_ntasks;
static double app_busy_ms;
static struct pph_impl_stat *app_stats;
static size_t app_nstats;

/* One more run of t's variant, of ms, in a list of stats; a fork-join
 * variant's runs are counted per team size (threads), which its history
 * also keeps apart: a run of the same variant on one thread or on two is a
 * different choice. */
static void record(struct pph_impl_stat **stats, size_t *nstats, const struct pph_task *t,
		   double ms, unsigned threads)
{
	size_t i;
	struct pph_impl_stat *s;

	if (t->cl->impls[t->impl_ran].arch != PPH_ARCH_OPENMP)
		threads = 0;
	for (i = 0; i < *nstats; i++)
		if ((*stats)[i].cl == t->cl && (*stats)[i].impl == (unsigned)t->impl_ran &&
		    (*stats)[i].threads == threads) {
			(*stats)[i].count++;
			(*stats)[i].ms += ms;
			return;
		}
	s = realloc(*stats, (*nstats + 1) * sizeof(*s));
	if (!s)
		return; /* statistics are best effort */
	*stats = s;
	s[*nstats].cl = t->cl;
	s[*nstats].impl = (unsigned)t->impl_ran;
	s[*nstats].threads = threads;
	s[*nstats].count = 1;
	s[*nstats].ms = ms;
	(*nstats)++;
}

void pph__worker_record(struct pph_worker *w, const struct pph_task *t, double ms,
			unsigned threads)
{
	w->ntasks++;
	w->busy_ms += ms;
	record(&w->stats, &w->nstats, t, ms, threads);
}

void pph__app_record(const struct pph_task *t, double ms)
{
	pthread_mutex_lock(&app_lock);
	app_ntasks++;
	app_busy_ms += ms;
	record(&app_stats, &app_nstats, t, ms, 1); /* a team of one: its own thread */
	pthread_mutex_unlock(&app_lock);
}

static void print_variants(FILE *fp, const struct pph_impl_stat *stats, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++) {
		fprintf(fp, "    %s/%s: %lu tasks, %.3f ms", stats[j].cl->name,
			stats[j].cl->impls[stats[j].impl].name, stats[j].count, stats[j].ms);
		if (stats[j].threads)
			fprintf(fp, ", team of %u", stats[j].threads);
		fputc('\n', fp);
	}
}

static void print_transfers(FILE *fp)
{
	struct pph_transfer_stats s;
	unsigned n;

	pph_transfer_stats_get(&s);
	fprintf(fp, "transfers: %lu to devices (%llu bytes; %lu started when queued), %lu to host (%llu bytes)\n",
		s.to_device, s.bytes_to_device, s.prefetches, s.to_host, s.bytes_to_host);
	fprintf(fp, "device memory: %lu allocations, %lu reused from the cache, %lu evictions\n",
		s.allocations, s.reuses, s.evictions);
	for (n = 1; n < pph__rt.nnodes; n++) {
		double lat[2], bw[2];

		pph__transfer_model_get(n, lat, bw);
		fprintf(fp, "link to node %u (%s): to device %.1f us + %.2f GB/s, to host %.1f us + %.2f GB/s, a program's copies %.2f times slower, their latency %.2f times\n",
			n, pph_arch_name(pph__rt.nodes[n].arch), lat[0], bw[0] / 1e3, lat[1],
			bw[1] / 1e3, pph__transfer_slowdown(n), pph__transfer_latency_factor(n));
	}
}

/* The tiny runs of every variant: their sum, then one line each. */
struct tiny_sum {
	FILE *fp; /* NULL: summing */
	unsigned long runs;
	unsigned long long ns;
};

static void tiny_line(void *arg, const char *codelet, const char *variant, unsigned long runs,
		      unsigned long long ns)
{
	struct tiny_sum *sum = arg;

	if (!sum->fp) {
		sum->runs += runs;
		sum->ns += ns;
		return;
	}
	fprintf(sum->fp, "    %s/%s: %lu tasks, %.3f ms (estimated)\n", codelet, variant, runs,
		(double)ns / 1e6);
}

static void print_tiny(FILE *fp)
{
	struct tiny_sum sum = { NULL, 0, 0 };

	pph__perfmodel_each_tiny(tiny_line, &sum);
	if (!sum.runs)
		return;
	fprintf(fp, "application threads: %lu tiny tasks run in place, busy %.3f ms (estimated)\n",
		sum.runs, (double)sum.ns / 1e6);
	sum.fp = fp;
	pph__perfmodel_each_tiny(tiny_line, &sum);
}

void pph_stats_print(FILE *fp)
{
	unsigned i;

	if (!fp)
		fp = stderr;
	for (i = 0; i < pph__rt.nworkers; i++) {
		const struct pph_worker *w = &pph__rt.workers[i];

		fprintf(fp, "worker %u (%s", w->id, pph_arch_name(w->arch));
		if (w->core >= 0)
			fprintf(fp, ", core %d", w->core);
		fprintf(fp, "): %lu tasks, busy %.3f ms\n", w->ntasks, w->busy_ms);
		print_variants(fp, w->stats, w->nstats);
	}
	pthread_mutex_lock(&app_lock);
	if (app_ntasks)
		fprintf(fp, "application threads: %lu tasks, busy %.3f ms\n", app_ntasks,
			app_busy_ms);
	print_variants(fp, app_stats, app_nstats);
	pthread_mutex_unlock(&app_lock);
	print_tiny(fp);
	if (pph__rt.sched->print_stats)
		pph__rt.sched->print_stats(fp);
	pph__split_print_stats(fp);
	if (pph__rt.nnodes > 1)
		print_transfers(fp);
}

void pph__stats_free(void)
{
	unsigned i;

	for (i = 0; i < pph__rt.nworkers; i++)
		free(pph__rt.workers[i].stats);
	pthread_mutex_lock(&app_lock);
	free(app_stats);
	app_stats = NULL;
	app_nstats = 0;
	app_ntasks = 0;
	app_busy_ms = 0;
	pthread_mutex_unlock(&app_lock);
}
