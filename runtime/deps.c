/*
 * Dependencies inferred from access modes, in submission order: per handle,
 * the last writer and the readers since.  A reader waits for the last
 * writer; a writer waits for the last writer and every reader since it, so
 * readers of one value run concurrently.  Handles keep references on the
 * tasks they remember, so a finished detached task stays readable here.
 */
#include <stdlib.h>

#include "internal.h"

/* Readers kept before finished ones are pruned from a handle's list. */
#define PRUNE_READERS 32

/* pred must finish before task starts; nothing to do if it already has. */
static void add_dependency(struct pph_task *pred, struct pph_task *task)
{
	struct pph_successor *s;

	if (pred == task)
		return;
	pthread_mutex_lock(&pred->lock);
	if (!pred->done) {
		s = malloc(sizeof(*s));
		if (!s) {
			/* cannot record the edge: wait for pred instead */
			pthread_mutex_unlock(&pred->lock);
			pph_task_wait(pred);
			return;
		}
		s->task = task;
		s->next = pred->successors;
		pred->successors = s;
		atomic_fetch_add(&task->ndeps, 1);
	}
	pthread_mutex_unlock(&pred->lock);
}

static int task_is_done(struct pph_task *t)
{
	int done;

	pthread_mutex_lock(&t->lock);
	done = t->done;
	pthread_mutex_unlock(&t->lock);
	return done;
}

static void prune_readers(struct pph_data *d)
{
	struct pph_reader **p = &d->readers, *r;

	while ((r = *p)) {
		if (task_is_done(r->task)) {
			*p = r->next;
			pph__task_release(r->task);
			free(r);
			d->nreaders--;
		} else {
			p = &r->next;
		}
	}
}

static void access_handle(struct pph_task *task, struct pph_data *d,
			  enum pph_access mode)
{
	struct pph_reader *r;

	pthread_mutex_lock(&d->lock);
	if (d->last_writer)
		add_dependency(d->last_writer, task);
	if (mode & PPH_W) {
		while ((r = d->readers)) {
			add_dependency(r->task, task);
			d->readers = r->next;
			pph__task_release(r->task);
			free(r);
		}
		d->nreaders = 0;
		if (d->last_writer)
			pph__task_release(d->last_writer);
		atomic_fetch_add(&task->refs, 1);
		d->last_writer = task;
	} else {
		if (d->nreaders >= PRUNE_READERS)
			prune_readers(d);
		r = malloc(sizeof(*r));
		if (r) {
			atomic_fetch_add(&task->refs, 1);
			r->task = task;
			r->next = d->readers;
			d->readers = r;
			d->nreaders++;
		}
		/* without memory to remember the reader, a later writer cannot
		 * wait for it: make the handle's writers wait on this task */
		else {
			if (d->last_writer)
				pph__task_release(d->last_writer);
			atomic_fetch_add(&task->refs, 1);
			d->last_writer = task;
		}
	}
	pthread_mutex_unlock(&d->lock);
}

void pph__deps_submit(struct pph_task *task)
{
	unsigned i, j;

	for (i = 0; i < task->nbuffers; i++) {
		enum pph_access mode = task->modes[i];
		int seen = 0;

		/* a handle listed twice is accessed once, with both modes */
		for (j = 0; j < i; j++)
			seen |= task->handles[j] == task->handles[i];
		if (seen)
			continue;
		for (j = i + 1; j < task->nbuffers; j++)
			if (task->handles[j] == task->handles[i])
				mode |= task->modes[j];
		access_handle(task, task->handles[i], mode);
	}
	if (atomic_fetch_sub(&task->ndeps, 1) == 1 && !pph__run_undeferred(task))
		pph__rt.sched->push(task);
}

void pph__deps_complete(struct pph_task *task)
{
	struct pph_successor *s, *next;

	if (!task->nbuffers)
		return; /* only handles make successors: it has none */
	pthread_mutex_lock(&task->lock);
	task->done = 1;
	s = task->successors;
	task->successors = NULL;
	pthread_mutex_unlock(&task->lock);
	for (; s; s = next) {
		next = s->next;
		if (atomic_fetch_sub(&s->task->ndeps, 1) == 1)
			pph__rt.sched->push(s->task);
		free(s);
	}
}

void pph__deps_host_wait(struct pph_data *d, enum pph_access mode)
{
	struct pph_task *writer, **readers = NULL;
	struct pph_reader *r;
	unsigned n = 0, i;

	/* take references under the lock, wait without it */
	pthread_mutex_lock(&d->lock);
	writer = d->last_writer;
	if (writer)
		atomic_fetch_add(&writer->refs, 1);
	if ((mode & PPH_W) && d->nreaders &&
	    (readers = malloc(d->nreaders * sizeof(*readers))))
		for (r = d->readers; r; r = r->next) {
			atomic_fetch_add(&r->task->refs, 1);
			readers[n++] = r->task;
		}
	pthread_mutex_unlock(&d->lock);
	if (writer) {
		pph__task_wait_finished(writer);
		pph__task_release(writer);
	}
	for (i = 0; i < n; i++) {
		pph__task_wait_finished(readers[i]);
		pph__task_release(readers[i]);
	}
	free(readers);
}

void pph__deps_data_wait(struct pph_data *d)
{
	struct pph_task *writer;
	struct pph_reader *r, *next;

	pthread_mutex_lock(&d->lock);
	writer = d->last_writer;
	r = d->readers;
	d->last_writer = NULL;
	d->readers = NULL;
	d->nreaders = 0;
	pthread_mutex_unlock(&d->lock);
	if (writer) {
		pph__task_wait_finished(writer);
		pph__task_release(writer);
	}
	for (; r; r = next) {
		next = r->next;
		pph__task_wait_finished(r->task);
		pph__task_release(r->task);
		free(r);
	}
}
