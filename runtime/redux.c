/*
 * The reduction access mode (PPH_REDUX), as StarPU's and X-Kaapi's: tasks
 * that contribute to a handle through its operator run concurrently, each
 * into an accumulator of its own (host memory, the handle's shape, set to
 * the identity when the task acquires it).  The accumulators wait on the
 * handle, newest first, until the handle is accessed in another mode: then
 * a combine task, a writer on the handle, takes them as it is listed (so
 * exactly those of the tasks listed before it, which it waits for) and
 * combines them into the data in submission order: the result does not
 * depend on which worker ran what, nor when.
 *
 * Accumulators live in host memory.  A task that runs on a device gets a
 * copy there, set to the identity on the host and copied in as it acquires
 * its data, and copied home once it ran: the combine stays on the host, in
 * the operator's C functions, in submission order, whatever ran where.  A
 * small accumulator (a dot product's one element) costs two small copies.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "internal.h"

atomic_int pph__redux_used;

int pph_data_set_reduction(pph_data_handle d, const struct pph_reduction *op)
{
	if (!d || !op || !op->init || !op->combine)
		return -EINVAL;
	pph__spin_lock(&d->lock);
	d->redux_op = op;
	pph__spin_unlock(&d->lock);
	atomic_store(&pph__redux_used, 1);
	return 0;
}

/* ---- accumulators ---- */

/* Elements of an interface, their size, and the distance between rows
 * (a vector or a variable is one row). */
static void shape_of(enum pph_layout layout, const union pph_iface *f, size_t *rows,
		     size_t *cols, size_t *ld, size_t *elemsize)
{
	switch (layout) {
	case PPH_LAYOUT_VECTOR:
		*rows = 1, *cols = *ld = f->vector.n, *elemsize = f->vector.elemsize;
		break;
	case PPH_LAYOUT_VARIABLE:
		*rows = *cols = *ld = 1, *elemsize = f->variable.size;
		break;
	default: /* PPH_LAYOUT_MATRIX */
		*rows = f->matrix.rows, *cols = f->matrix.cols, *ld = f->matrix.ld;
		*elemsize = f->matrix.elemsize;
		break;
	}
}

#define PPH_ACC_HEAD                                                                      \
	((sizeof(struct pph_redux_acc) + sizeof(max_align_t) - 1) / sizeof(max_align_t) * \
	 sizeof(max_align_t))

/* An accumulator of d's shape, packed, not set yet; NULL without memory. */
static struct pph_redux_acc *acc_new(const struct pph_data *d, const struct pph_reduction *op)
{
	size_t rows, cols, ld, es;
	struct pph_redux_acc *a;

	shape_of(d->layout, &d->host.iface, &rows, &cols, &ld, &es);
	a = malloc(PPH_ACC_HEAD + rows * cols * es + 1);
	if (!a)
		return NULL;
	a->next = NULL;
	a->op = op;
	a->layout = d->layout;
	a->ready = 0;
	a->dev_node = 0;
	a->iface = d->host.iface;
	a->iface.vector.ptr = (char *)a + PPH_ACC_HEAD; /* ptr first in every interface */
	if (d->layout == PPH_LAYOUT_MATRIX)
		a->iface.matrix.ld = cols;
	return a;
}

void *pph__redux_buffer(struct pph_task *task, unsigned i)
{
	struct pph_redux_acc *a = task->reader_nodes[i].acc;
	size_t rows, cols, ld, es, k, n;
	char *p = a->iface.vector.ptr;

	/* again on a retry: a failed variant may have left anything there */
	shape_of(a->layout, &a->iface, &rows, &cols, &ld, &es);
	for (k = 0, n = rows * cols; k < n; k++)
		a->op->init(p + k * es);
	a->ready = 1;
	return &a->iface;
}

static size_t acc_bytes(const struct pph_redux_acc *a)
{
	size_t rows, cols, ld, es;

	shape_of(a->layout, &a->iface, &rows, &cols, &ld, &es);
	return rows * cols * es;
}

int pph__redux_acquire(struct pph_task *task, unsigned i, unsigned node, void **buffer)
{
	struct pph_redux_acc *a = task->reader_nodes[i].acc;
	void *buf;
	int rc;

	*buffer = pph__redux_buffer(task, i);
	if (node == 0)
		return 0;
	if ((rc = pph__mem_alloc(node, acc_bytes(a), &buf)) != 0)
		return rc;
	a->dev_iface = a->iface; /* packed, as on the host */
	a->dev_iface.vector.ptr = buf; /* ptr first in every interface */
	a->dev_node = node;
	rc = pph__node_copy(node, a->layout, &a->iface, &a->dev_iface, 0, acc_bytes(a));
	if (rc) {
		pph__redux_release(task, i);
		return rc;
	}
	*buffer = &a->dev_iface;
	return 0;
}

int pph__redux_fetch(struct pph_task *task, unsigned node)
{
	unsigned i;
	int rc;

	if (node == 0)
		return 0;
	for (i = 0; i < task->nbuffers; i++) {
		struct pph_redux_acc *a = task->reader_nodes[i].acc;

		if (task->modes[i] != PPH_REDUX)
			continue;
		rc = pph__node_copy(node, a->layout, &a->dev_iface, &a->iface, 1, acc_bytes(a));
		if (rc)
			return rc;
	}
	return 0;
}

void pph__redux_release(struct pph_task *task, unsigned i)
{
	struct pph_redux_acc *a = task->reader_nodes[i].acc;

	if (!a->dev_node)
		return;
	pph__mem_free(a->dev_node, acc_bytes(a), a->dev_iface.vector.ptr);
	a->dev_node = 0;
}

/* into (the data, host memory) op= a, element by element. */
static void combine_into(union pph_iface *into, const struct pph_redux_acc *a)
{
	size_t rows, cols, ld, es, r, c;
	char *dst = into->vector.ptr;
	const char *src = a->iface.vector.ptr;

	shape_of(a->layout, into, &rows, &cols, &ld, &es);
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			a->op->combine(dst + (r * ld + c) * es, src + (r * cols + c) * es);
}

/* Combine a list taken from a handle (newest first) in submission order,
 * and free it.  An accumulator whose task never ran holds nothing. */
static void combine_list(union pph_iface *into, struct pph_redux_acc *newest)
{
	struct pph_redux_acc *oldest = NULL, *next;

	for (; newest; newest = next) { /* reverse */
		next = newest->next;
		newest->next = oldest;
		oldest = newest;
	}
	for (; oldest; oldest = next) {
		next = oldest->next;
		if (oldest->ready)
			combine_into(into, oldest);
		free(oldest);
	}
}

/* ---- the combine task ---- */

static void combine_cpu(void *buffers[], void *arg)
{
	combine_list(buffers[0], *(struct pph_redux_acc **)arg);
}

static const struct pph_impl combine_impls[] = {
	{ PPH_ARCH_CPU, combine_cpu, "cpu", 0 },
};

const struct pph_codelet pph__redux_combine_cl = {
	.name = "pph_redux_combine",
	.nimpls = 1,
	.impls = combine_impls,
};

void pph__redux_list_locked(struct pph_task *task, unsigned i, struct pph_data *d,
			    enum pph_access mode)
{
	struct pph_redux_acc *a;

	if (task->cl == &pph__redux_combine_cl) {
		*(struct pph_redux_acc **)task->arg = d->redux_accs;
		d->redux_accs = NULL;
	} else if (mode == PPH_REDUX) {
		a = task->reader_nodes[i].acc;
		a->next = d->redux_accs;
		d->redux_accs = a;
	}
}

static int has_accumulators(struct pph_data *d)
{
	int any;

	pph__spin_lock(&d->lock);
	any = d->redux_accs != NULL;
	pph__spin_unlock(&d->lock);
	return any;
}

/* No combine task can run (the runtime stopped, no CPU worker): combine
 * here, once the tasks that made the accumulators are over. */
static void combine_here(struct pph_data *d)
{
	struct pph_redux_acc *list;

	pph__spin_lock(&d->lock);
	list = d->redux_accs;
	d->redux_accs = NULL;
	pph__spin_unlock(&d->lock);
	pph__deps_data_wait(d); /* finds no accumulator: does not come back here */
	if (pph__rt.initialized && pph__coherence_acquire(d, 0, PPH_RW) != 0) {
		pph__spin_lock(&d->lock); /* for the next access; none came meanwhile */
		d->redux_accs = list;
		pph__spin_unlock(&d->lock);
		return;
	}
	combine_list(&d->host.iface, list);
}

void pph__redux_close(struct pph_data *d)
{
	struct pph_redux_acc *none = NULL;
	struct pph_task *t;

	if (!atomic_load_explicit(&pph__redux_used, memory_order_relaxed) ||
	    !has_accumulators(d))
		return;
	t = pph__rt.initialized ? pph_task_create(&pph__redux_combine_cl) : NULL;
	if (t && pph_task_add_buffer(t, d, PPH_RW) == 0 &&
	    pph_task_set_arg(t, &none, sizeof(none)) == 0) {
		pph_task_set_detached(t, 1);
		if (pph_task_submit(t) == 0)
			return;
	}
	if (t)
		pph_task_destroy(t);
	combine_here(d);
}

/* ---- submission ---- */

/* Buffer i is a reduction: the handle is named only there, and has an
 * operator.  Returns it, or NULL. */
static const struct pph_reduction *redux_op(const struct pph_task *task, unsigned i)
{
	const struct pph_reduction *op;
	struct pph_data *d = task->handles[i];
	unsigned j;

	for (j = 0; j < task->nbuffers; j++)
		if (j != i && task->handles[j] == d)
			return NULL;
	pph__spin_lock(&d->lock);
	op = d->redux_op;
	pph__spin_unlock(&d->lock);
	return op;
}

static void free_accumulators(struct pph_task *task, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (task->modes[i] == PPH_REDUX) {
			free(task->reader_nodes[i].acc);
			task->reader_nodes[i].acc = NULL;
		}
}

void pph__redux_unsubmit(struct pph_task *task)
{
	free_accumulators(task, task->nbuffers);
}

int pph__redux_submit(struct pph_task *task)
{
	const struct pph_reduction *op;
	unsigned i, nredux = 0;

	if (task->cl == &pph__redux_combine_cl)
		return 0;
	pph__list_held_task(); /* submitted by a task run in place: it may hold the handles */
	for (i = 0; i < task->nbuffers; i++)
		if (task->modes[i] == PPH_REDUX)
			nredux++;
		else
			pph__redux_close(task->handles[i]);
	if (!nredux)
		return 0;
	for (i = 0; i < task->nbuffers; i++) {
		if (task->modes[i] != PPH_REDUX)
			continue;
		op = redux_op(task, i);
		task->reader_nodes[i].acc = op ? acc_new(task->handles[i], op) : NULL;
		if (!task->reader_nodes[i].acc) {
			free_accumulators(task, i);
			return op ? -ENOMEM : -EINVAL;
		}
	}
	return 0;
}
