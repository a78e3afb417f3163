/*
 * Data handles over StarPU's vector, matrix and variable interfaces.  Our
 * matrices are row major with rows ld elements apart: StarPU's nx is our
 * cols, ny our rows.  Every partition (blocks, sized blocks, columns,
 * tiles) is one StarPU filter over a list of rectangles, so that each
 * child is a view of the parent's memory on every node.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A child's place in its parent: rows [r0, r0 + nr), columns [c0, c0 + nc)
 * (a vector: elements [c0, c0 + nc)). */
struct rect {
	size_t r0, nr, c0, nc;
};

static int fits32(size_t n)
{
	return n <= UINT32_MAX;
}

/*
 * Host data: no StarPU handle; a variant gets its host pointer as it is.
 *  - Data registered at NULL, which C APIs take for "none" (png.h's
 *    png_set_keep_unknown_chunks(png, keep, NULL, 0)): StarPU faults
 *    registering it, and a copy it allocated would give the variant a
 *    pointer where the caller gave none; libpeppher passes NULL too.
 *  - Data registered inside a variant, for a call made there (libpng's
 *    read callback calls png_get_io_ptr): StarPU's workers must not wait,
 *    for the call or to unregister, so such a call runs at once on the
 *    worker (sp__task_run_here), on the memory the variant gave.
 */
static int host_data(const struct pph_data *d)
{
	return d->h == NULL;
}

/* Register d at ptr as host data (no StarPU handle)? */
static int as_host_data(struct pph_data *d, void *ptr)
{
	d->host = ptr;
	return !ptr || starpu_task_get_current();
}

/*
 * Empty data (a vector of 0 elements, a matrix of 0 rows or columns) has a
 * StarPU handle of one element of its own, zeroed: StarPU 1.3 allocates a
 * copy of allocsize bytes on an OpenCL device, and 0 is CL_INVALID_BUFFER_SIZE,
 * which its OpenCL driver reports by aborting the process.  The variants
 * still see the data empty (task.c): a CPU variant gets the caller's
 * pointer, an OpenCL one a valid cl_mem of that element, which it does not
 * read, so that it runs as on libpeppher (a dot product of 0 elements
 * still writes its 0).  Returns the element, or NULL (-ENOMEM).
 */
static void *spare_element(struct pph_data *d)
{
	return d->spare = calloc(1, d->elemsize);
}

/*
 * The handles registered with StarPU and not unregistered: pph_shutdown
 * brings them home (a device's result, never copied home before StarPU
 * stopped, was lost: the host memory held the values before the call).
 */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pph_data *live;

static void live_add(struct pph_data *d)
{
	pthread_mutex_lock(&live_lock);
	d->live_next = live;
	if (live)
		live->live_prev = d;
	live = d;
	pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct pph_data *d)
{
	pthread_mutex_lock(&live_lock);
	if (d->live_prev)
		d->live_prev->live_next = d->live_next;
	else if (live == d)
		live = d->live_next;
	if (d->live_next)
		d->live_next->live_prev = d->live_prev;
	d->live_prev = d->live_next = NULL;
	pthread_mutex_unlock(&live_lock);
}

static void bring_home(starpu_data_handle_t h)
{
	if (h && starpu_data_acquire(h, STARPU_R) == 0)
		starpu_data_release(h);
}

void sp__data_home_all(void)
{
	struct pph_data *d, *next;
	unsigned k;

	pthread_mutex_lock(&live_lock);
	for (d = live; d; d = d->live_next)
		if (d->nchildren) /* the blocks hold the data */
			for (k = 0; k < d->nchildren; k++)
				bring_home(d->children[k].h);
		else
			bring_home(d->h);
	/* their StarPU handles die with StarPU: a later runtime's
	 * pph_shutdown must not touch them.  The host memory is the data
	 * now (runtime.h): they become host data, which pph_data_acquire
	 * and a container's read or write grant at once, as libpeppher
	 * does, where they asked the stopped runtime (-ENODEV, said, and
	 * pph_vector_read gave NULL after PEPPHER_SHUTDOWN) */
	for (d = live; d; d = next) {
		next = d->live_next;
		d->live_prev = d->live_next = NULL;
		d->h = NULL;
		for (k = 0; k < d->nchildren; k++)
			d->children[k].h = NULL;
	}
	live = NULL;
	pthread_mutex_unlock(&live_lock);
}

/*
 * Unregistered handles are kept, not freed, and reused by later
 * registrations, as libpeppher's slots are: a handle unregistered twice,
 * or used after, is read as unregistered and refused with a message
 * (runtime.h); freed, a second pph_data_unregister read freed memory
 * (valgrind: invalid read) and refused it only by luck.  The list holds as
 * many as the program had registered at once, at most.
 */
static struct pph_data *unused;	   /* linked through live_next */
static pthread_mutex_t unused_lock = PTHREAD_MUTEX_INITIALIZER;

static struct pph_data *data_new(enum sp_layout layout)
{
	struct pph_data *d;

	pthread_mutex_lock(&unused_lock);
	if ((d = unused))
		unused = d->live_next;
	pthread_mutex_unlock(&unused_lock);
	if (d)
		memset(d, 0, sizeof(*d));
	else if (!(d = calloc(1, sizeof(*d))))
		return NULL;
	d->layout = layout;
	return d;
}

/* d unregistered: kept for a later registration, still reading as
 * unregistered until then */
static void data_unused(struct pph_data *d)
{
	free(d->spare);
	d->spare = NULL;
	d->h = NULL;
	pthread_mutex_lock(&unused_lock);
	d->live_next = unused;
	unused = d;
	pthread_mutex_unlock(&unused_lock);
}

int pph_vector_register(pph_data_handle *handle, void *ptr, size_t n, size_t elemsize)
{
	struct pph_data *d;
	size_t bytes;
	int rc;

	if (!handle || !elemsize)
		return -EINVAL;
	if (__builtin_mul_overflow(n, elemsize, &bytes) || !fits32(n))
		return -EOVERFLOW;
	if ((rc = sp__enter("pph_vector_register", 0)) != 0)
		return rc;
	if (!(d = data_new(SP_VECTOR))) {
		sp__leave();
		return -ENOMEM;
	}
	d->n = n;
	d->elemsize = elemsize;
	if (!as_host_data(d, ptr)) {
		if (!n && !spare_element(d)) {
			free(d);
			sp__leave(); /* else pph_shutdown waits for this call */
			return -ENOMEM;
		}
		if (n)
			starpu_vector_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)ptr,
						    (uint32_t)n, elemsize);
		else
			starpu_vector_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)d->spare,
						    1, elemsize);
		sp__registered(d);
		live_add(d);
	}
	sp__leave();
	*handle = d;
	return 0;
}

int pph_matrix_register(pph_data_handle *handle, void *ptr, size_t rows, size_t cols, size_t ld,
			size_t elemsize)
{
	struct pph_data *d;
	size_t elems, bytes;
	int rc;

	if (!handle || !elemsize || ld < cols)
		return -EINVAL;
	/* rows * ld too: StarPU 1.3 sizes a device replica from a 32-bit
	 * product of its dimensions, and asserts when it wraps (a matrix of
	 * 2^32 elements and more aborted the process on an OpenCL worker) */
	if (__builtin_mul_overflow(rows, ld, &elems) || __builtin_mul_overflow(elems, elemsize, &bytes) ||
	    !fits32(rows) || !fits32(ld) || !fits32(elems))
		return -EOVERFLOW;
	if ((rc = sp__enter("pph_matrix_register", 0)) != 0)
		return rc;
	if (!(d = data_new(SP_MATRIX))) {
		sp__leave();
		return -ENOMEM;
	}
	d->rows = rows;
	d->cols = cols;
	d->ld = ld;
	d->elemsize = elemsize;
	if (!as_host_data(d, ptr)) {
		if ((!rows || !cols) && !spare_element(d)) {
			free(d);
			sp__leave(); /* else pph_shutdown waits for this call */
			return -ENOMEM;
		}
		if (rows && cols)
			starpu_matrix_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)ptr,
						    (uint32_t)ld, (uint32_t)cols, (uint32_t)rows,
						    elemsize);
		else
			starpu_matrix_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)d->spare,
						    1, 1, 1, elemsize);
		sp__registered(d);
		live_add(d);
	}
	sp__leave();
	*handle = d;
	return 0;
}

int pph_variable_register(pph_data_handle *handle, void *ptr, size_t size)
{
	struct pph_data *d;
	int rc;

	if (!handle || !size)
		return -EINVAL;
	if ((rc = sp__enter("pph_variable_register", 0)) != 0)
		return rc;
	if (!(d = data_new(SP_VARIABLE))) {
		sp__leave();
		return -ENOMEM;
	}
	d->n = size;
	d->elemsize = size;
	if (!as_host_data(d, ptr)) {
		starpu_variable_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)ptr, size);
		sp__registered(d);
		live_add(d);
	}
	sp__leave();
	*handle = d;
	return 0;
}

/*
 * StarPU's memory manager writes dirty device copies home ahead of need:
 * once fewer than STARPU_MINIMUM_CLEAN_BUFFERS percent (5) of a node's
 * buffers are clean, it writes dirty ones back until
 * STARPU_TARGET_CLEAN_BUFFERS percent (10) are.  With 20 buffers or more
 * on a device (5% is one), data that every task writes there is copied
 * home after each task: 32 containers updated 100 times each on PoCL were
 * copied home 3,219 times, where 0 and 0 copy each home once, when the
 * host reads it (doc/starpu.md).  libpeppher writes a copy home when the host needs it,
 * or to evict it: so does libpeppher-starpu, unless the environment sets
 * either percentage.
 */
void sp__memory_defaults(void)
{
	if (!getenv("STARPU_MINIMUM_CLEAN_BUFFERS") && !getenv("STARPU_TARGET_CLEAN_BUFFERS")) {
		setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
		setenv("STARPU_TARGET_CLEAN_BUFFERS", "0", 0);
	}
}

/* StarPU's filter_func: child id of the list of rectangles in filter_arg_ptr. */
static void vector_filter(void *father, void *child, struct starpu_data_filter *f, unsigned id,
			  unsigned nparts)
{
	const struct starpu_vector_interface *p = father;
	struct starpu_vector_interface *c = child;
	const struct rect *r = (const struct rect *)f->filter_arg_ptr + id;
	size_t off = r->c0 * p->elemsize;

	(void)nparts;
	c->id = p->id;
	c->nx = (uint32_t)r->nc;
	c->elemsize = p->elemsize;
	c->allocsize = r->nc * p->elemsize;
	c->ptr = p->ptr ? p->ptr + off : 0;
	c->dev_handle = p->dev_handle;
	c->offset = p->offset + off;
}

static void matrix_filter(void *father, void *child, struct starpu_data_filter *f, unsigned id,
			  unsigned nparts)
{
	const struct starpu_matrix_interface *p = father;
	struct starpu_matrix_interface *c = child;
	const struct rect *r = (const struct rect *)f->filter_arg_ptr + id;
	size_t off = (r->r0 * p->ld + r->c0) * p->elemsize;

	(void)nparts;
	c->id = p->id;
	c->nx = (uint32_t)r->nc;
	c->ny = (uint32_t)r->nr;
	c->ld = p->ld;
	c->elemsize = p->elemsize;
	c->allocsize = r->nc * r->nr * p->elemsize;
	c->ptr = p->ptr ? p->ptr + off : 0;
	c->dev_handle = p->dev_handle;
	c->offset = p->offset + off;
}

/* Wait for the tasks using h and bring its data home. */
static void settle(starpu_data_handle_t h)
{
	if (starpu_data_acquire(h, STARPU_RW) == 0)
		starpu_data_release(h);
}

/* Apply the rectangles to parent: its nparts children are new handles, a
 * grid of nr x nc (nparts blocks: nr = nparts, nc = 1). */
static int partition(pph_data_handle parent, unsigned nr, unsigned nc, struct rect *rects,
		     pph_data_handle *children)
{
	unsigned nparts = nr * nc;
	struct starpu_data_filter f = { 0 };
	unsigned k;
	int rc;

	if (!parent || !children || !nparts || parent->layout == SP_VARIABLE || host_data(parent) ||
	    parent->spare)
		return -EINVAL;
	if (parent->nchildren || parent->child) {
		fprintf(stderr, "peppher: pph_data_partition: handle %p %s\n", (void *)parent,
			parent->nchildren ? "is partitioned: pph_data_unpartition() it first" :
					    "is a block of a partitioned handle");
		return -EBUSY;
	}
	if ((rc = sp__enter("pph_data_partition", 0)) != 0)
		return rc;
	if (pph__data_held_here(parent, "pph_data_partition")) { /* StarPU asserted */
		sp__leave();
		return -EDEADLK;
	}
	if (!(parent->children = calloc(nparts, sizeof(*parent->children)))) {
		sp__leave();
		return -ENOMEM;
	}
	sp__gather_everywhere(parent); /* every rank's children start current */
	settle(parent->h);
	f.filter_func = parent->layout == SP_VECTOR ? vector_filter : matrix_filter;
	f.nchildren = nparts;
	f.filter_arg_ptr = rects;
	starpu_data_partition(parent->h, &f);
	parent->nchildren = nparts;
	for (k = 0; k < nparts; k++) {
		struct pph_data *c = &parent->children[k];

		c->h = starpu_data_get_sub_data(parent->h, 1, k);
		c->layout = parent->layout;
		c->elemsize = parent->elemsize;
		c->n = rects[k].nc;
		c->rows = rects[k].nr;
		c->cols = rects[k].nc;
		c->ld = parent->ld;
		c->child = 1;
		children[k] = c;
	}
	sp__partitioned(parent, nr, nc);
	sp__leave();
	return 0;
}

/* The length of a handle along its split: elements, or rows; 0 for empty
 * data (a matrix of rows of no column is not split: pph_call_partitioned
 * calls it whole). */
size_t sp__split_length(const struct pph_data *d)
{
	if (d->spare)
		return 0;
	return d->layout == SP_VECTOR ? d->n : d->rows;
}

/* Blocks of the given lengths along the split (rows of a matrix). */
static int partition_lengths(pph_data_handle parent, unsigned nparts, const size_t *sizes,
			     pph_data_handle *children)
{
	struct rect *rects;
	size_t at = 0;
	unsigned k;
	int rc;

	if (!parent || !nparts || !sizes || parent->layout == SP_VARIABLE)
		return -EINVAL;
	if (!(rects = calloc(nparts, sizeof(*rects))))
		return -ENOMEM;
	for (k = 0; k < nparts; k++) {
		rects[k] = parent->layout == SP_VECTOR ?
				   (struct rect){ 0, 1, at, sizes[k] } :
				   (struct rect){ at, sizes[k], 0, parent->cols };
		at += sizes[k];
		if (!sizes[k])
			at = SIZE_MAX; /* refused below */
	}
	rc = at == sp__split_length(parent) ? partition(parent, nparts, 1, rects, children) : -EINVAL;
	free(rects);
	return rc;
}

/*
 * An asynchronous split call's blocks (wrappers.c): StarPU's asynchronous
 * partitioning, planned and submitted at once, the parent left usable
 * (StarPU orders its tasks around the partition's).  n equal blocks of
 * parent (elements or rows) into the wrappers blocks[] and StarPU's
 * children hs[].  -EINVAL where the parent cannot be split so
 * (sp__data_split_ok: partitioned by the program, a block, host or empty
 * data; the synchronous call says why), -ENOMEM.
 */
int sp__data_split_ok(const struct pph_data *parent, unsigned n)
{
	return parent->layout != SP_VARIABLE && !host_data(parent) && !parent->spare &&
	       !parent->nchildren && !parent->child && n >= 2 && n <= sp__split_length(parent);
}

int sp__data_split_submit(pph_data_handle parent, unsigned n, struct pph_data *blocks,
			  starpu_data_handle_t *hs)
{
	struct starpu_data_filter f = { 0 };
	struct rect *rects;
	size_t at = 0, len, total = sp__split_length(parent);
	unsigned k;

	if (!sp__data_split_ok(parent, n))
		return -EINVAL;
	if (!(rects = calloc(n, sizeof(*rects))))
		return -ENOMEM;
	for (k = 0; k < n; k++, at += len) {
		len = total / n + (k < total % n);
		rects[k] = parent->layout == SP_VECTOR ? (struct rect){ 0, 1, at, len } :
							 (struct rect){ at, len, 0, parent->cols };
	}
	f.filter_func = parent->layout == SP_VECTOR ? vector_filter : matrix_filter;
	f.nchildren = n;
	f.filter_arg_ptr = rects;
	starpu_data_partition_plan(parent->h, &f, hs);
	for (k = 0; k < n; k++)
		blocks[k] = (struct pph_data){ .h = hs[k],
					       .layout = parent->layout,
					       .elemsize = parent->elemsize,
					       .n = rects[k].nc,
					       .rows = rects[k].nr,
					       .cols = rects[k].nc,
					       .ld = parent->ld,
					       .child = 1 };
	free(rects);
	starpu_data_partition_submit(parent->h, n, hs);
	return 0;
}

/* Their gather home submitted, and the plan's children unregistered once
 * done: done(arg) runs when the gather has. */
void sp__data_split_gather(pph_data_handle parent, unsigned n, starpu_data_handle_t *hs,
			   void (*done)(void *), void *arg)
{
	starpu_data_unpartition_submit_sequential_consistency_cb(parent->h, n, hs, STARPU_MAIN_RAM,
								 1, done, arg);
	starpu_data_partition_clean(parent->h, n, hs);
}

/* Lengths of n split into nparts blocks as equal as can be. */
static size_t *equal_lengths(size_t n, unsigned nparts)
{
	size_t *sizes = calloc(nparts ? nparts : 1, sizeof(*sizes));
	unsigned k;

	for (k = 0; sizes && k < nparts; k++)
		sizes[k] = n / nparts + (k < n % nparts);
	return sizes;
}

int pph_data_partition(pph_data_handle parent, unsigned nparts, pph_data_handle *children)
{
	size_t *sizes;
	int rc;

	if (!parent || !children || !nparts || parent->layout == SP_VARIABLE ||
	    nparts > sp__split_length(parent))
		return -EINVAL;
	if (!(sizes = equal_lengths(sp__split_length(parent), nparts)))
		return -ENOMEM;
	rc = partition_lengths(parent, nparts, sizes, children);
	free(sizes);
	return rc;
}

int pph_data_partition_sizes(pph_data_handle parent, unsigned nparts, const size_t *sizes,
			     pph_data_handle *children)
{
	return partition_lengths(parent, nparts, sizes, children);
}

int pph_data_partition_columns(pph_data_handle parent, unsigned nparts, pph_data_handle *children)
{
	struct rect *rects;
	size_t *sizes, at = 0;
	unsigned k;
	int rc;

	if (!parent || !children || !nparts || parent->layout != SP_MATRIX || nparts > parent->cols)
		return -EINVAL;
	sizes = equal_lengths(parent->cols, nparts);
	rects = calloc(nparts, sizeof(*rects));
	rc = sizes && rects ? 0 : -ENOMEM;
	for (k = 0; rc == 0 && k < nparts; at += sizes[k], k++)
		rects[k] = (struct rect){ 0, parent->rows, at, sizes[k] };
	if (rc == 0)
		rc = partition(parent, nparts, 1, rects, children);
	free(rects);
	free(sizes);
	return rc;
}

int pph_data_partition_tiles(pph_data_handle parent, size_t tile_rows, size_t tile_cols,
			     pph_data_handle *children)
{
	size_t nr, nc, i, j;
	struct rect *rects;
	int rc;

	if (!parent || !children || !tile_rows || !tile_cols || parent->layout != SP_MATRIX ||
	    !parent->rows || !parent->cols)
		return -EINVAL;
	nr = pph_tile_count(parent->rows, tile_rows);
	nc = pph_tile_count(parent->cols, tile_cols);
	if (nr * nc > UINT32_MAX || !(rects = calloc(nr * nc, sizeof(*rects))))
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		for (j = 0; j < nc; j++) {
			size_t r0 = i * tile_rows, c0 = j * tile_cols;

			rects[i * nc + j] = (struct rect){
				r0, parent->rows - r0 < tile_rows ? parent->rows - r0 : tile_rows,
				c0, parent->cols - c0 < tile_cols ? parent->cols - c0 : tile_cols
			};
		}
	rc = partition(parent, (unsigned)nr, (unsigned)nc, rects, children);
	free(rects);
	return rc;
}

void pph_data_unpartition(pph_data_handle parent, unsigned nparts, pph_data_handle *children)
{
	unsigned k, i;

	if (!parent || !children)
		return;
	if (!parent->nchildren) {
		fprintf(stderr, "peppher: pph_data_unpartition: handle %p is not partitioned\n",
			(void *)parent);
		return;
	}
	/* every block, each once, or nothing, as libpeppher: StarPU's
	 * unpartition gathers them all whatever was given, and a program
	 * that went on using the blocks it had left out (or named twice)
	 * used freed handles */
	if (nparts != parent->nchildren) {
		fprintf(stderr, "peppher: pph_data_unpartition: handle %p has %u blocks, not %u: nothing done\n",
			(void *)parent, parent->nchildren, nparts);
		return;
	}
	for (i = 0; i < nparts && children[i] >= parent->children &&
		    children[i] < parent->children + nparts && children[i]->child == 1;
	     i++)
		children[i]->child = 2; /* seen, until the check is done */
	for (k = 0; k < i; k++)
		children[k]->child = 1;
	if (i < nparts) {
		fprintf(stderr, "peppher: pph_data_unpartition: block %u (%p) is not one of handle %p's, or is given twice: nothing done\n",
			i, (void *)children[i], (void *)parent);
		return;
	}
	/* else StarPU stopped: its handles went with it (host data since,
	 * sp__data_home_all) */
	if (!host_data(parent) && sp__enter(NULL, 1) == 0) {
		sp__children_everywhere(parent); /* the whole parent current on every rank */
		for (k = 0; k < parent->nchildren; k++)
			settle(parent->children[k].h);
		starpu_data_unpartition(parent->h, STARPU_MAIN_RAM);
		sp__unpartitioned(parent);
		sp__leave();
	}
	free(parent->children);
	parent->children = NULL;
	parent->nchildren = 0;
}

int pph_data_acquire(pph_data_handle handle, enum pph_access mode)
{
	int rc;

	if (!handle || !(mode & PPH_RW) || handle->unregistered)
		return -EINVAL;
	if (handle->nchildren) {
		fprintf(stderr, "peppher: pph_data_acquire: handle %p is partitioned: pph_data_unpartition() it first\n",
			(void *)handle);
		return -EBUSY;
	}
	if (host_data(handle))
		return 0;
	/* not running: a forked child (StarPU's threads are the parent's) */
	if ((rc = sp__enter("pph_data_acquire", 1)) != 0)
		return rc;
	if (sp__waits_in_variant("pph_data_acquire")) {
		sp__leave();
		return -EDEADLK;
	}
	/* a host write also needs the data valid (libpeppher's W acquire
	 * brings it home too); released at once: the host keeps its valid
	 * copy until a task writes the data */
	sp__gather_everywhere(handle); /* every rank's host sees the same value */
	rc = starpu_data_acquire(handle->h, mode == PPH_R ? STARPU_R : STARPU_RW);
	if (rc == 0)
		starpu_data_release(handle->h);
	if (rc == 0 && mode != PPH_R)
		sp__host_written(handle);
	sp__leave();
	return rc;
}

/* StarPU's schedulers have no use for the hint (libpeppher's dmda counts
 * the copy home with it). */
void pph_data_set_host_reads(pph_data_handle handle, int yes)
{
	(void)handle;
	(void)yes;
}

void pph__data_set_container(pph_data_handle handle, struct pph_container *c)
{
	handle->container = c;
}

int pph__data_held_here(pph_data_handle handle, const char *what)
{
	struct starpu_task *t = starpu_task_get_current();
	unsigned i;

	for (i = 0; t && handle && handle->h && i < STARPU_TASK_GET_NBUFFERS(t); i++)
		if (STARPU_TASK_GET_HANDLE(t, i) == handle->h) {
			fprintf(stderr, "peppher: %s: the variant running here holds handle %p: refused (-EDEADLK)\n",
				what, (void *)handle);
			return 1;
		}
	return 0;
}

/* pph_data_unregister, with the host copy made valid first where fetch
 * (or where the data is distributed: every rank unregisters it alike). */
static void unregister(pph_data_handle handle, int fetch)
{
	if (!handle || pph__data_held_here(handle, "pph_data_unregister"))
		return;
	if (handle->unregistered || handle->child || handle->nchildren) {
		fprintf(stderr, "peppher: pph_data_unregister: %s handle refused\n",
			handle->unregistered ? "an unregistered" :
			handle->child	     ? "a block of a partitioned" :
						     "a partitioned");
		return;
	}
	handle->unregistered = 1;
	if (!host_data(handle))
		live_remove(handle);
	/* else StarPU stopped (or is stopping: waited for) */
	if (!host_data(handle) && sp__enter(NULL, 1) == 0) {
		if (fetch || !sp__may_discard(handle)) {
			sp__gather_everywhere(handle); /* wrapped memory current on every rank */
			starpu_data_unregister(handle->h);
		} else {
			starpu_data_unregister_no_coherency(handle->h);
		}
		sp__leave();
	}
	data_unused(handle);
}

void pph_data_unregister(pph_data_handle handle)
{
	/* an entry wrapper unregisters after its call: errno stays the
	 * variant's */
	int e = errno;

	unregister(handle, 1);
	errno = e;
}

void pph__data_discard(pph_data_handle handle)
{
	unregister(handle, 0);
}
