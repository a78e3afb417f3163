/* Per-worker statistics: tasks, busy time, and which variants ran where. */
#include <stdlib.h>

#include "internal.h"

void pph__worker_record(struct pph_worker *w, const struct pph_task *t,
			double ms)
{
	size_t i;
	struct pph_impl_stat *s;

	w->ntasks++;
	w->busy_ms += ms;
	for (i = 0; i < w->nstats; i++)
		if (w->stats[i].cl == t->cl && w->stats[i].impl == (unsigned)t->impl_ran) {
			w->stats[i].count++;
			w->stats[i].ms += ms;
			return;
		}
	s = realloc(w->stats, (w->nstats + 1) * sizeof(*s));
	if (!s)
		return; /* statistics are best effort */
	w->stats = s;
	s[w->nstats].cl = t->cl;
	s[w->nstats].impl = (unsigned)t->impl_ran;
	s[w->nstats].count = 1;
	s[w->nstats].ms = ms;
	w->nstats++;
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
		fprintf(fp, "link to node %u (%s): to device %.1f us + %.2f GB/s, to host %.1f us + %.2f GB/s\n",
			n, pph_arch_name(pph__rt.nodes[n].arch), lat[0], bw[0] / 1e3, lat[1],
			bw[1] / 1e3);
	}
}

void pph_stats_print(FILE *fp)
{
	unsigned i;
	size_t j;

	for (i = 0; i < pph__rt.nworkers; i++) {
		const struct pph_worker *w = &pph__rt.workers[i];

		fprintf(fp, "worker %u (%s", w->id, pph_arch_name(w->arch));
		if (w->core >= 0)
			fprintf(fp, ", core %d", w->core);
		fprintf(fp, "): %lu tasks, busy %.3f ms\n", w->ntasks, w->busy_ms);
		for (j = 0; j < w->nstats; j++) {
			const struct pph_impl_stat *s = &w->stats[j];

			fprintf(fp, "    %s/%s: %lu tasks, %.3f ms\n", s->cl->name,
				s->cl->impls[s->impl].name, s->count, s->ms);
		}
	}
	if (atomic_load(&pph__rt.undeferred_tasks))
		fprintf(fp, "application threads: %lu tasks run at submission (backlog or tiny), busy %.3f ms (estimated)\n",
			(unsigned long)atomic_load(&pph__rt.undeferred_tasks),
			(double)atomic_load(&pph__rt.undeferred_ns) / 1e6);
	if (pph__rt.nnodes > 1)
		print_transfers(fp);
}

void pph__stats_free(void)
{
	unsigned i;

	for (i = 0; i < pph__rt.nworkers; i++)
		free(pph__rt.workers[i].stats);
}
