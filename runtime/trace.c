/*
 * Traces in the Chrome trace-event JSON format (open them in Perfetto or
 * chrome://tracing): PEPPHER_TRACE=FILE.json records one slice per task,
 * named CODELET/VARIANT, and one per transfer ("transfer to device|host",
 * with its bytes), on one track per worker and one for the application's
 * threads (their prefetches at submission, acquires, unregisters), and writes
 * the file at shutdown.  Each worker appends to its own buffer, so recording
 * takes no lock; the application's threads share one, under a lock.
 */
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "launcher.h"

static struct {
	char *path; /* NULL: tracing off */
	int created; /* the file is this run's: removed should pph_init fail */
	double t0;  /* microseconds, CLOCK_MONOTONIC at init */
	/* the application threads' track */
	pthread_mutex_t app_lock;
	struct pph_trace_event *app;
	size_t napp, app_cap;
} tr = { .app_lock = PTHREAD_MUTEX_INITIALIZER };

double pph__now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * PEPPHER_TRACE's file, or, under an MPI launcher with several ranks, a
 * file per rank, the rank before the name's extension (trace.json:
 * trace.0.json, trace.1.json, ...): every rank wrote the same file, and
 * it held their traces one after the other, no JSON.  NULL: no memory.
 */
static char *trace_path(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	char *p;
	int rank, len;

	if (pph__launcher_size(&rank) <= 1)
		return strdup(path);
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	len = (int)(dot - path);
	if (asprintf(&p, "%.*s.%d%s", len, path, rank, dot) < 0)
		return NULL;
	return p;
}

int pph__trace_init(void)
{
	const char *env = getenv("PEPPHER_TRACE");
	char *path;
	int fd, err;

	free(tr.path);
	tr.path = NULL;
	if (!env || !*env)
		return 0;
	if (!(path = trace_path(env)))
		return -ENOMEM;
	/* a path that cannot be written fails now, not after the whole run
	 * (the trace was lost and the exit status 0); opened, not truncated:
	 * pph_init may still fail (its workers not started), and an earlier
	 * run's trace there was lost, 0 bytes, for a run that never ran */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	tr.created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(path);
		return err;
	}
	close(fd);
	tr.path = path;
	tr.t0 = pph__now_us();
	return 0;
}

void pph__trace_abandon(void)
{
	if (tr.path && tr.created)
		unlink(tr.path);
	free(tr.path);
	tr.path = NULL;
}

int pph__trace_enabled(void)
{
	return tr.path != NULL;
}

/* A new event at the end of events (n of cap), or NULL: tracing is best
 * effort. */
static struct pph_trace_event *append(struct pph_trace_event **events, size_t *n, size_t *cap)
{
	struct pph_trace_event *e;

	if (*n == *cap) {
		size_t more = *cap ? 2 * *cap : 1024;

		e = realloc(*events, more * sizeof(*e));
		if (!e)
			return NULL;
		*events = e;
		*cap = more;
	}
	e = &(*events)[(*n)++];
	memset(e, 0, sizeof(*e));
	return e;
}

static struct pph_trace_event *new_event(struct pph_worker *w)
{
	return append(&w->trace, &w->ntrace, &w->trace_cap);
}

void pph__trace_slice(struct pph_worker *w, const struct pph_codelet *cl, unsigned impl,
		      const char *cat, double start_us, double dur_us,
		      const struct pph_sched_why *why)
{
	struct pph_trace_event *e;

	if (!w) /* an application thread's (a call run on its caller's thread) */
		pthread_mutex_lock(&tr.app_lock);
	e = w ? new_event(w) : append(&tr.app, &tr.napp, &tr.app_cap);
	if (e) {
		e->cl = cl;
		e->impl = impl;
		e->cat = cat;
		e->start = start_us - tr.t0;
		e->dur = dur_us;
		if (why)
			e->why = *why;
	}
	if (!w)
		pthread_mutex_unlock(&tr.app_lock);
}


void pph__trace_transfer(int to_host, uint64_t bytes, double start_us, double dur_us)
{
	struct pph_worker *w = pph__current_worker;
	struct pph_trace_event *e;

	if (!tr.path)
		return;
	if (!w)
		pthread_mutex_lock(&tr.app_lock);
	e = w ? new_event(w) : append(&tr.app, &tr.napp, &tr.app_cap);
	if (e) {
		e->cat = "transfer";
		e->to_host = to_host;
		e->bytes = bytes;
		e->start = start_us - tr.t0;
		e->dur = dur_us;
	}
	if (!w)
		pthread_mutex_unlock(&tr.app_lock);
}

static void write_transfer(FILE *fp, const struct pph_trace_event *e, unsigned tid)
{
	fprintf(fp, ",\n{\"name\":\"transfer to %s\",\"cat\":\"transfer\","
		"\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,"
		"\"tid\":%u,\"args\":{\"bytes\":%llu}}",
		e->to_host ? "host" : "device", e->start, e->dur, tid,
		(unsigned long long)e->bytes);
}

/* A microsecond figure of a placement, or null where there was none (a
 * variant explored has no prediction). */
static void write_us(FILE *fp, const char *name, float us)
{
	if (us >= 0 && us < 1e30f)
		fprintf(fp, ",\"%s\":%.3f", name, (double)us);
	else
		fprintf(fp, ",\"%s\":null", name);
}

/* Why dmda placed the task (struct pph_sched_why) as the slice's args:
 * its expected wait, run and copies there, and the earliest end it was
 * weighed against on another memory node. */
static void write_why(FILE *fp, const struct pph_sched_why *why, const struct pph_codelet *cl)
{
	fprintf(fp, ",\"args\":{\"placed\":\"%s\"", why->reason);
	write_us(fp, "wait_us", why->wait);
	write_us(fp, "run_us", why->run);
	write_us(fp, "copies_us", why->copies);
	if (why->other_worker >= 0) {
		const struct pph_worker *o = &pph__rt.workers[why->other_worker];

		fprintf(fp, ",\"other\":\"%s on worker %d (%s)\"", cl->impls[why->other_impl].name,
			why->other_worker, pph_arch_name(o->arch));
		write_us(fp, "other_wait_us", why->other_wait);
		write_us(fp, "other_run_us", why->other_run);
		write_us(fp, "other_copies_us", why->other_copies);
	}
	fputc('}', fp);
}

/* A task's slice on track tid. */
static void write_slice(FILE *fp, const struct pph_trace_event *e, unsigned tid)
{
	/* names are C identifiers: nothing to escape */
	fprintf(fp, ",\n{\"name\":\"%s/%s\",\"cat\":\"%s\",\"ph\":\"X\","
		"\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u",
		e->cl->name, e->cl->impls[e->impl].name, e->cat, e->start, e->dur, tid);
	if (e->why.reason)
		write_why(fp, &e->why, e->cl);
	fputc('}', fp);
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

			if (e->cl)
				write_slice(fp, e, w->id);
			else
				write_transfer(fp, e, w->id);
		}
	}
	if (tr.napp) { /* after the workers' tracks */
		fprintf(fp, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"name\":\"application threads\"}}", sep, pph__rt.nworkers);
		for (j = 0; j < tr.napp; j++)
			if (tr.app[j].cl)
				write_slice(fp, &tr.app[j], pph__rt.nworkers);
			else
				write_transfer(fp, &tr.app[j], pph__rt.nworkers);
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
	free(tr.app);
	tr.app = NULL;
	tr.napp = tr.app_cap = 0;
	free(tr.path);
	tr.path = NULL;
}
