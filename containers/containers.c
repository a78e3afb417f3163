/*
 * Smart containers over runtime data handles.  Each one records what the
 * host may do without asking the runtime (read, write); any component call
 * that uses it resets that, so the next host access goes through
 * pph_data_acquire, which waits for the tasks concerned and makes the host
 * copy valid.
 *
 * The state is shared by the threads that use a container: a call on it
 * resets it twice, in pph_container_use (before its task is submitted) and
 * once submitted (pph__container_called, from the call's wrapper), and each
 * reset counts in the same word (bits 2 and up).  A read or write that
 * asks the runtime marks the host copy valid only if no call counted in
 * between (a compare-and-swap from the word it saw before asking): a read
 * on another thread could otherwise ask after pph_container_use but before
 * the call's task was submitted, wait for nothing, and leave the host copy
 * marked valid past the call (1 in 20,000 calls on libpeppher, 5 in 5,000
 * on StarPU: the caller's own read after its call then returned what was
 * there before).  The fast path is one load.
 */
#include <errno.h>
#include <stdlib.h>

#include <peppher/wrappers.h>

#include "../runtime/internal.h"

#define HOST_STATE 3u /* bits of c->host: enum pph_host_access */
#define HOST_CALL 4u  /* one more reset, in the bits above */

/* Set what the host may do, as a call does: counted, so that an access
 * asking the runtime meanwhile does not overwrite it. */
static void host_set(struct pph_container *c, enum pph_host_access to)
{
	unsigned old = __atomic_load_n(&c->host, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(&c->host, &old,
					    ((old & ~HOST_STATE) + HOST_CALL) | (unsigned)to, 1,
					    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
}

/* A call that accesses c with mode: a task that writes makes the host copy
 * stale; one that reads makes host writes wait for it. */
static void host_called(struct pph_container *c, enum pph_access mode)
{
	unsigned old = __atomic_load_n(&c->host, __ATOMIC_RELAXED), to;

	do {
		to = old & HOST_STATE;
		if (mode & (PPH_W | PPH_REDUX))
			to = PPH_HOST_NONE;
		else if (to == PPH_HOST_WRITE)
			to = PPH_HOST_READ;
	} while (!__atomic_compare_exchange_n(&c->host, &old, ((old & ~HOST_STATE) + HOST_CALL) | to,
					      1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
}

/* The runtime made the host copy valid for to, asked when c->host was
 * seen: so marked unless a call counted since (then the next access asks
 * again). */
static void host_granted(struct pph_container *c, unsigned seen, enum pph_host_access to)
{
	(void)__atomic_compare_exchange_n(&c->host, &seen, (seen & ~HOST_STATE) | (unsigned)to, 0,
					  __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static int init(struct pph_container *c, void *data, size_t elemsize, int owned)
{
	c->data = data;
	c->elemsize = elemsize;
	c->owned = owned;
	c->host = PPH_HOST_WRITE; /* the host has the only copy */
	return 0;
}

/* A container of bytes bytes: owned fresh memory (pinned where CUDA
 * devices are in use: owned 2), or data (owned 0). */
static void *alloc_data(void *data, size_t bytes, int *owned)
{
	int pinned;

	if (data) {
		*owned = 0;
		return data;
	}
	data = pph__host_alloc(bytes, &pinned);
	*owned = pinned ? 2 : 1;
	return data;
}

static void free_data(void *data, int owned)
{
	if (owned)
		pph__host_free(data, owned == 2);
}

/* Unregister c and free its data; 0 where the variant running here holds
 * it (its own task: destroying it waited for that task for good), which
 * is said and nothing freed.  Memory of c's own is freed as it is: a
 * device's copy is not brought home first (a CG's temporaries, last
 * written on the device, were each copied home only to be freed);
 * wrapped memory is the caller's again, up to date. */
static int release(struct pph_container *c, const char *what)
{
	if (pph__data_held_here(c->handle, what))
		return 0;
	if (c->owned)
		pph__data_discard(c->handle);
	else
		pph_data_unregister(c->handle);
	free_data(c->data, c->owned);
	return 1;
}

/* *bytes = a * b * c, or EOVERFLOW (errno) when it does not fit: a wrapped
 * size would allocate a small buffer that kernels then write past. */
static int total_bytes(size_t a, size_t b, size_t c, size_t *bytes)
{
	if (__builtin_mul_overflow(a, b, bytes) || __builtin_mul_overflow(*bytes, c, bytes)) {
		errno = EOVERFLOW;
		return -1;
	}
	return 0;
}

static pph_vector *vector_new(void *data, size_t n, size_t elemsize)
{
	pph_vector *v;
	size_t bytes;
	int owned, rc;

	if (total_bytes(n, elemsize, 1, &bytes) != 0)
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v || !elemsize || !(data = alloc_data(data, bytes, &owned))) {
		free(v);
		errno = elemsize ? ENOMEM : EINVAL;
		return NULL;
	}
	init(&v->c, data, elemsize, owned);
	v->n = n;
	rc = pph_vector_register(&v->c.handle, data, n, elemsize);
	if (rc) {
		free_data(data, owned);
		free(v);
		errno = -rc;
		return NULL;
	}
	pph__data_set_container(v->c.handle, &v->c);
	return v;
}

pph_vector *pph_vector_create(size_t n, size_t elemsize)
{
	return vector_new(NULL, n, elemsize);
}

pph_vector *pph_vector_wrap(void *data, size_t n, size_t elemsize)
{
	if (!data && n) {
		errno = EINVAL;
		return NULL;
	}
	return vector_new(data ? data : (void *)"", n, elemsize);
}

void pph_vector_destroy(pph_vector *v)
{
	if (!v)
		return;
	if (release(&v->c, "pph_vector_destroy"))
		free(v);
}

size_t pph_vector_size(const pph_vector *v)
{
	return v->n;
}

static pph_matrix *matrix_new(void *data, size_t rows, size_t cols, size_t ld, size_t elemsize)
{
	pph_matrix *m;
	size_t bytes;
	int owned, rc;

	if (total_bytes(rows, ld, elemsize, &bytes) != 0)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m || !elemsize || !(data = alloc_data(data, bytes, &owned))) {
		free(m);
		errno = elemsize ? ENOMEM : EINVAL;
		return NULL;
	}
	init(&m->c, data, elemsize, owned);
	m->rows = rows;
	m->cols = cols;
	m->ld = ld;
	rc = pph_matrix_register(&m->c.handle, data, rows, cols, ld, elemsize);
	if (rc) {
		free_data(data, owned);
		free(m);
		errno = -rc;
		return NULL;
	}
	pph__data_set_container(m->c.handle, &m->c);
	return m;
}

pph_matrix *pph_matrix_create(size_t rows, size_t cols, size_t elemsize)
{
	return matrix_new(NULL, rows, cols, cols, elemsize);
}

pph_matrix *pph_matrix_wrap(void *data, size_t rows, size_t cols, size_t elemsize)
{
	return pph_matrix_wrap_ld(data, rows, cols, cols, elemsize);
}

pph_matrix *pph_matrix_wrap_ld(void *data, size_t rows, size_t cols, size_t ld, size_t elemsize)
{
	if (!data || ld < cols) {
		errno = EINVAL;
		return NULL;
	}
	return matrix_new(data, rows, cols, ld, elemsize);
}

void pph_matrix_destroy(pph_matrix *m)
{
	if (!m)
		return;
	if (release(&m->c, "pph_matrix_destroy"))
		free(m);
}

/* Tile (i, j) of t: a container over its part of the parent's memory,
 * which it does not own, and the handle pph_data_partition_tiles made. */
static void tile_init(pph_matrix_tiles *t, size_t i, size_t j)
{
	pph_matrix *m = &t->tiles[i * t->ncols + j];
	const pph_matrix *p = t->parent;
	size_t r0 = i * t->tile_rows, c0 = j * t->tile_cols;

	init(&m->c, (char *)p->c.data + (r0 * p->ld + c0) * p->c.elemsize, p->c.elemsize, 0);
	m->c.handle = t->handles[i * t->ncols + j];
	m->c.host = PPH_HOST_WRITE; /* the parent's data came home when tiled */
	pph__data_set_container(m->c.handle, &m->c);
	m->rows = p->rows - r0 < t->tile_rows ? p->rows - r0 : t->tile_rows;
	m->cols = p->cols - c0 < t->tile_cols ? p->cols - c0 : t->tile_cols;
	m->ld = p->ld;
}

pph_matrix_tiles *pph_matrix_tile_grid(pph_matrix *m, size_t tile_rows, size_t tile_cols)
{
	pph_matrix_tiles *t;
	size_t n, i, j;
	int rc;

	if (!m || !tile_rows || !tile_cols || !m->rows || !m->cols) {
		errno = EINVAL;
		return NULL;
	}
	n = pph_tile_count(m->rows, tile_rows) * pph_tile_count(m->cols, tile_cols);
	t = calloc(1, sizeof(*t));
	if (!t || !(t->tiles = calloc(n, sizeof(*t->tiles))) ||
	    !(t->handles = calloc(n, sizeof(*t->handles)))) {
		if (t)
			free(t->tiles);
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->parent = m;
	t->nrows = pph_tile_count(m->rows, tile_rows);
	t->ncols = pph_tile_count(m->cols, tile_cols);
	t->tile_rows = tile_rows;
	t->tile_cols = tile_cols;
	rc = pph_data_partition_tiles(m->c.handle, tile_rows, tile_cols, t->handles);
	if (rc) {
		free(t->handles);
		free(t->tiles);
		free(t);
		errno = -rc;
		return NULL;
	}
	host_set(&m->c, PPH_HOST_NONE); /* its next host access asks (and is refused) */
	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->ncols; j++)
			tile_init(t, i, j);
	return t;
}

pph_matrix *pph_matrix_tile(pph_matrix_tiles *t, size_t i, size_t j)
{
	if (!t || i >= t->nrows || j >= t->ncols)
		return NULL;
	return &t->tiles[i * t->ncols + j];
}

void pph_matrix_untile(pph_matrix_tiles *t)
{
	if (!t)
		return;
	pph_data_unpartition(t->parent->c.handle, (unsigned)(t->nrows * t->ncols), t->handles);
	host_set(&t->parent->c, PPH_HOST_NONE); /* valid on the host: the next access is cheap */
	free(t->handles);
	free(t->tiles);
	free(t);
}

pph_scalar *pph_scalar_create(size_t elemsize)
{
	pph_scalar *s = calloc(1, sizeof(*s));
	int owned, rc;
	void *data;

	if (!s || !elemsize || !(data = alloc_data(NULL, elemsize, &owned))) {
		free(s);
		errno = elemsize ? ENOMEM : EINVAL;
		return NULL;
	}
	init(&s->c, data, elemsize, owned);
	rc = pph_variable_register(&s->c.handle, data, elemsize);
	if (rc) {
		free(data);
		free(s);
		errno = -rc;
		return NULL;
	}
	pph__data_set_container(s->c.handle, &s->c);
	return s;
}

void pph_scalar_destroy(pph_scalar *s)
{
	if (!s)
		return;
	if (release(&s->c, "pph_scalar_destroy"))
		free(s);
}

const void *pph_container_read(struct pph_container *c)
{
	unsigned seen = __atomic_load_n(&c->host, __ATOMIC_ACQUIRE);
	int rc;

	if ((seen & HOST_STATE) != PPH_HOST_NONE)
		return c->data;
	rc = pph_data_acquire(c->handle, PPH_R);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	host_granted(c, seen, PPH_HOST_READ);
	return c->data;
}

void *pph_container_write(struct pph_container *c)
{
	unsigned seen = __atomic_load_n(&c->host, __ATOMIC_ACQUIRE);
	int rc;

	if ((seen & HOST_STATE) == PPH_HOST_WRITE)
		return c->data;
	rc = pph_data_acquire(c->handle, PPH_RW);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	host_granted(c, seen, PPH_HOST_WRITE);
	return c->data;
}

pph_data_handle pph_container_use(struct pph_container *c, enum pph_access mode)
{
	host_called(c, mode);
	return c->handle;
}

void pph__container_called(struct pph_container *c, enum pph_access mode)
{
	host_called(c, mode);
}
