/*
 * Dependencies inferred from access modes, in submission order: per handle,
 * the last writer and the readers since.  A reader waits for the last
 * writer; a writer waits for the last writer and every reader since it, so
 * readers of one value run concurrently.  A PPH_REDUX task is listed as a
 * reader: it waits for the last writer only, and the combine task that
 * ends its group (redux.c), a writer, waits for it.  A handle lists only unfinished
 * tasks, and holds a reference on each until it leaves (leave_handle), so
 * that a detached task stays readable here while listed.
 */
#include <stdlib.h>

#include "internal.h"

/* pred must finish before task starts; nothing to do if it already has.
 * The edge in node, else malloc'ed.  Returns 0, or -1 if the edge could
 * not be recorded (no memory). */
static int add_dependency(struct pph_task *pred, struct pph_task *task,
			  struct pph_successor *node)
{
	struct pph_successor *s;
	int rc = 0;

	if (pred == task)
		return 0;
	pthread_mutex_lock(&pred->lock);
	if (atomic_load_explicit(&pred->state, memory_order_relaxed) < PPH_TASK_ENDED) {
		s = node ? node : malloc(sizeof(*s));
		if (s) {
			s->task = task;
			s->next = pred->successors;
			s->borrowed = node != NULL;
			pred->successors = s;
			atomic_fetch_add(&task->ndeps, 1);
		} else {
			rc = -1;
		}
	}
	pthread_mutex_unlock(&pred->lock);
	return rc;
}

void pph__deps_add(struct pph_task *pred, struct pph_task *task, struct pph_successor *node)
{
	/* the fields an edge uses are set when a task is shared */
	pph__task_share(pred);
	pph__task_share(task);
	add_dependency(pred, task, node);
}

/* Handle i of the task, unless an earlier buffer names it too; *mode: the
 * union of the modes the task accesses it with. */
static inline int distinct_handle(const struct pph_task *task, unsigned i, enum pph_access *mode)
{
	unsigned j;

	for (j = 0; j < i; j++)
		if (task->handles[j] == task->handles[i])
			return 0;
	*mode = task->modes[i];
	for (j = i + 1; j < task->nbuffers; j++)
		if (task->handles[j] == task->handles[i])
			*mode |= task->modes[j];
	return 1;
}

static void unlink_reader(struct pph_data *d, struct pph_reader *r)
{
	*r->pprev = r->next;
	if (r->next)
		r->next->pprev = r->pprev;
	r->pprev = NULL;
	d->nreaders--;
}

/* Count a task's access to d (locked) in its readers per version: a
 * write closes the version (a mean over recent ones: a program's data flow
 * repeats from step to step). */
static void count_version_reads(struct pph_data *d, enum pph_access mode)
{
	unsigned reads = atomic_load_explicit(&d->version_reads, memory_order_relaxed);
	float mean;

	if (mode & PPH_R)
		reads++;
	if (mode & PPH_W) {
		mean = atomic_load_explicit(&d->readers_per_version, memory_order_relaxed);
		mean = mean > 0 ? mean + ((float)reads - mean) / 4 : (float)reads;
		atomic_store_explicit(&d->readers_per_version, mean, memory_order_relaxed);
		reads = 0;
	}
	atomic_store_explicit(&d->version_reads, reads, memory_order_relaxed);
}

/* List buffer i of task on d (locked) as its last writer or one more
 * reader, in place of what the task waits for. */
static void list_locked(struct pph_task *task, unsigned i, struct pph_data *d,
			enum pph_access mode)
{
	struct pph_reader *r = &task->reader_nodes[i];

	atomic_fetch_add(&task->refs, 1);
	count_version_reads(d, mode);
	if (__builtin_expect(mode == PPH_REDUX || task->cl == &pph__redux_combine_cl, 0))
		pph__redux_list_locked(task, i, d, mode);
	if (mode & PPH_W) {
		r->pprev = NULL;
		d->last_writer = task;
		return;
	}
	r->task = task;
	r->next = d->readers;
	r->pprev = &d->readers;
	if (d->readers)
		d->readers->pprev = &r->next;
	d->readers = r;
	d->nreaders++;
}

/*
 * A split call's gather, listed on d (locked) right after its scatter,
 * in the same lock: no other thread's task comes between them, so that
 * one submitted meanwhile waits for the gather, hence for the blocks.
 * No edge to add: the gather waits for the scatter through the blocks
 * (and an edge of its own), and the scatter for what came before.
 */
static void list_twin_locked(struct pph_task *twin, unsigned i, struct pph_data *d,
			     enum pph_access mode)
{
	struct pph_reader *reader;

	if (mode & PPH_W) {
		while ((reader = d->readers)) {
			unlink_reader(d, reader);
			pph__task_release(reader->task);
		}
		if (d->last_writer)
			pph__task_release(d->last_writer);
	}
	list_locked(twin, i, d, mode);
}

/* Buffer i of task accesses d with mode: wait for what came before. */
static void access_handle(struct pph_task *task, unsigned i, struct pph_data *d,
			  enum pph_access mode)
{
	struct pph_task *pred;
	struct pph_reader *reader;

again:
	pph__spin_lock(&d->lock);
	if ((pred = d->last_writer) && add_dependency(pred, task, NULL) != 0)
		goto wait;
	if (mode & PPH_W) {
		while ((reader = d->readers)) {
			if (add_dependency((pred = reader->task), task, NULL) != 0)
				goto wait;
			unlink_reader(d, reader);
			pph__task_release(reader->task);
		}
		if (d->last_writer)
			pph__task_release(d->last_writer);
	}
	list_locked(task, i, d, mode);
	if (task->twin) /* the same handles, in the same order and modes */
		list_twin_locked(task->twin, i, d, mode);
	pph__spin_unlock(&d->lock);
	return;
wait:
	/*
	 * No memory for the edge: wait until pred has finished (and so left
	 * the handle), then look again.  Not while holding the handle's lock,
	 * which pred needs to leave; a reference keeps pred's memory ours.
	 * An edge recorded before stays: one more successor node, which pred
	 * counts down like any other.
	 */
	atomic_fetch_add(&pred->refs, 1);
	pph__spin_unlock(&d->lock);
	pph__task_wait_finished(pred);
	pph__task_release(pred);
	goto again;
}

/* Unlock the first n buffers' distinct handles. */
static void unlock_handles(const struct pph_task *task, unsigned n)
{
	enum pph_access mode;
	unsigned i;

	for (i = 0; i < n; i++)
		if (distinct_handle(task, i, &mode))
			pph__spin_unlock(&task->handles[i]->lock);
}

int pph__deps_hold(struct pph_task *task)
{
	enum pph_access mode;
	unsigned i;

	for (i = 0; i < task->nbuffers; i++) {
		struct pph_data *d = task->handles[i];

		if (!distinct_handle(task, i, &mode))
			continue;
		/* reductions take their accumulators when listed */
		if (mode == PPH_REDUX || task->cl == &pph__redux_combine_cl)
			break;
		/* never waits while holding: no order among handles needed */
		if (!pph__spin_trylock(&d->lock))
			break;
		if (d->last_writer || ((mode & PPH_W) && d->readers)) {
			pph__spin_unlock(&d->lock);
			break;
		}
	}
	if (i == task->nbuffers)
		return 1;
	unlock_handles(task, i);
	return 0;
}

void pph__deps_unhold(struct pph_task *task)
{
	unlock_handles(task, task->nbuffers);
}

void pph__deps_list_held(struct pph_task *task)
{
	enum pph_access mode;
	unsigned i;

	pph__task_share(task);
	for (i = 0; i < task->nbuffers; i++)
		if (distinct_handle(task, i, &mode))
			list_locked(task, i, task->handles[i], mode);
	pph__deps_unhold(task);
}

/*
 * A finished task leaves the handle: a later task has nothing to wait for,
 * and the handle no longer keeps the task's memory from being reused (a
 * handle read once used to hold its reader until the next writer).
 */
static void leave_handle(struct pph_task *task, unsigned i, struct pph_data *d)
{
	struct pph_reader *r = &task->reader_nodes[i];
	int left = 0;

	pph__spin_lock(&d->lock);
	if (d->last_writer == task) {
		d->last_writer = NULL;
		left = 1;
	} else if (r->pprev) { /* still listed: not taken by a writer */
		unlink_reader(d, r);
		left = 1;
	}
	pph__spin_unlock(&d->lock);
	if (left)
		pph__task_release(task); /* the handle's reference; the owner's remains */
}

void pph__deps_list(struct pph_task *task)
{
	enum pph_access mode;
	unsigned i;

	pph__task_share(task);
	if (task->prelisted) /* listed with its scatter (list_twin_locked) */
		return;
	if (task->after)
		add_dependency(task->after, task, task->after_node);
	/* a handle listed twice is accessed once, with both modes */
	for (i = 0; i < task->nbuffers; i++)
		if (distinct_handle(task, i, &mode))
			access_handle(task, i, task->handles[i], mode);
}

/* The task ended: its successors, taken. */
static struct pph_successor *ended(struct pph_task *task)
{
	struct pph_successor *s;

	pthread_mutex_lock(&task->lock);
	atomic_store_explicit(&task->state, PPH_TASK_ENDED, memory_order_relaxed);
	s = task->successors;
	task->successors = NULL;
	pthread_mutex_unlock(&task->lock);
	return s;
}

static void let_go(struct pph_successor *s);

void pph__deps_leave(struct pph_task *task)
{
	struct pph_successor *s;
	enum pph_access mode;
	unsigned i;

	if (!task->nbuffers) {
		/* only handles make successors: it has none */
		atomic_store_explicit(&task->state, PPH_TASK_ENDED, memory_order_relaxed);
		return;
	}
	s = ended(task);
	for (i = 0; i < task->nbuffers; i++)
		if (distinct_handle(task, i, &mode))
			leave_handle(task, i, task->handles[i]);
	let_go(s);
}

/* The successors of a task that ended: those it was the last one they
 * waited for go to the scheduler. */
static void let_go(struct pph_successor *s)
{
	struct pph_successor *next, *rev;
	/* the list holds the last successor first: the ready ones go to the
	 * scheduler in the order they were submitted, which among equal
	 * priorities is the program's (a tiled Cholesky's panel: its first
	 * trsm, which the next potrf waits for, was queued last, behind the
	 * two others on one worker: 361 ms where 322 ms is the shortest) */
	for (rev = NULL; s; s = next) {
		next = s->next;
		s->next = rev;
		rev = s;
	}
	for (s = rev; s; s = next) {
		/* a borrowed node may be gone once its task has run */
		int borrowed = s->borrowed;

		next = s->next;
		if (atomic_fetch_sub(&s->task->ndeps, 1) == 1)
			pph__task_enqueue(s->task);
		if (!borrowed)
			free(s);
	}
}

void pph__deps_host_wait(struct pph_data *d, enum pph_access mode)
{
	struct pph_task *writer, **readers = NULL;
	struct pph_reader *r;
	unsigned n = 0, i;

	pph__list_held_task(); /* called by a task run in place: it may hold d */
	pph__redux_close(d);
	/* take references under the lock, wait without it */
	pph__spin_lock(&d->lock);
	writer = d->last_writer;
	if (writer)
		atomic_fetch_add(&writer->refs, 1);
	if ((mode & PPH_W) && d->nreaders &&
	    (readers = malloc(d->nreaders * sizeof(*readers))))
		for (r = d->readers; r; r = r->next) {
			atomic_fetch_add(&r->task->refs, 1);
			readers[n++] = r->task;
		}
	pph__spin_unlock(&d->lock);
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
	pph__list_held_task(); /* called by a task run in place: it may hold d */
	pph__redux_close(d);
	for (;;) {
		struct pph_task *t;

		/* each task leaves the handle as it finishes (leave_handle) */
		pph__spin_lock(&d->lock);
		t = d->last_writer ? d->last_writer : d->readers ? d->readers->task : NULL;
		if (t)
			atomic_fetch_add(&t->refs, 1);
		pph__spin_unlock(&d->lock);
		if (!t)
			return;
		pph__task_wait_finished(t);
		pph__task_release(t);
	}
}
