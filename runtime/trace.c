/*
 * Traces in the Chrome trace-event JSON format (open them in Perfetto or
 * chrome://tracing): PEPPHER_TRACE=FILE.json records one slice per task,
 * named CODELET/VARIANT, and one per transfer a worker makes ("transfer to
 * device|host", with its bytes), on one track per worker, and writes the file at
 * shutdown.  Each worker appends to its own buffer, so recording takes no
 * lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static struct {
	char *path; /* NULL: tracing off */
	double t0;  /* microseconds, CLOCK_MONOTONIC at init */
} tr;

double pph__now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int pph__trace_init(void)
{
	const char *path = getenv("PEPPHER_TRACE");

	free(tr.path);
	tr.path = NULL;
	if (path && *path && !(tr.path = strdup(path)))
		return -ENOMEM;
	tr.t0 = pph__now_us();
	return 0;
}

int pph__trace_enabled(void)
{
	return tr.path != NULL;
}

static struct pph_trace_event *new_event(struct pph_worker *w)
{
	struct pph_trace_event *e;

	if (w->ntrace == w->trace_cap) {
		size_t cap = w->trace_cap ? 2 * w->trace_cap : 1024;

		e = realloc(w->trace, cap * sizeof(*e));
		if (!e)
			return NULL; /* tracing is best effort */
		w->trace = e;
		w->trace_cap = cap;
	}
	e = &w->trace[w->ntrace++];
	memset(e, 0, sizeof(*e));
	return e;
}

void pph__trace_slice(struct pph_worker *w, const struct pph_codelet *cl,
		      unsigned impl, const char *cat, double start_us, double dur_us)
{
	struct pph_trace_event *e = new_event(w);

	if (!e)
		return;
	e->cl = cl;
	e->impl = impl;
	e->cat = cat;
	e->start = start_us - tr.t0;
	e->dur = dur_us;
}

void pph__trace_transfer(int to_host, uint64_t bytes, double start_us, double dur_us)
{
	struct pph_trace_event *e;

	if (!tr.path || !pph__current_worker || !(e = new_event(pph__current_worker)))
		return;
	e->cat = "transfer";
	e->to_host = to_host;
	e->bytes = bytes;
	e->start = start_us - tr.t0;
	e->dur = dur_us;
}

static void write_events(FILE *fp)
{
	unsigned i;
	size_t j;
	const char *sep = "";

	fprintf(fp, "{\"traceEvents\":[\n");
	for (i = 0; i < pph__rt.nworkers; i++) {
		const struct pph_worker *w = &pph__rt.workers[i];

		fprintf(fp, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"name\":\"worker %u (%s)\"}}", sep, w->id, w->id,
			pph_arch_name(w->arch));
		sep = ",\n";
		for (j = 0; j < w->ntrace; j++) {
			const struct pph_trace_event *e = &w->trace[j];

			/* names are C identifiers: nothing to escape */
			if (e->cl)
				fprintf(fp, ",\n{\"name\":\"%s/%s\",\"cat\":\"%s\",\"ph\":\"X\","
					"\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u}",
					e->cl->name, e->cl->impls[e->impl].name, e->cat,
					e->start, e->dur, w->id);
			else
				fprintf(fp, ",\n{\"name\":\"transfer to %s\",\"cat\":\"transfer\","
					"\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,"
					"\"tid\":%u,\"args\":{\"bytes\":%llu}}",
					e->to_host ? "host" : "device", e->start, e->dur, w->id,
					(unsigned long long)e->bytes);
		}
	}
	fprintf(fp, "\n],\"displayTimeUnit\":\"ms\"}\n");
}

void pph__trace_shutdown(void)
{
	unsigned i;
	FILE *fp;

	if (tr.path) {
		fp = fopen(tr.path, "w");
		if (fp) {
			write_events(fp);
			if (ferror(fp) | fclose(fp))
				fprintf(stderr, "peppher: cannot write trace %s\n", tr.path);
		} else {
			fprintf(stderr, "peppher: cannot write trace %s: %s\n", tr.path,
				strerror(errno));
		}
	}
	for (i = 0; i < pph__rt.nworkers; i++) {
		free(pph__rt.workers[i].trace);
		pph__rt.workers[i].trace = NULL;
		pph__rt.workers[i].ntrace = pph__rt.workers[i].trace_cap = 0;
	}
	free(tr.path);
	tr.path = NULL;
}
