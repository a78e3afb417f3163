/*
 * Data handles: registration, partitions, the registry of the handles with
 * device replicas.  A handle has one replica per memory node; node 0 is
 * host memory, where the registered memory lives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Handles come from slabs of PPH_SLAB_HANDLES slots at a constant stride:
 * handles registered one after the other, then used in that order, are a
 * stream the processor's stride prefetcher follows.  Allocated one by one,
 * malloc's headers made the stride alternate (704, 768 bytes) and a task
 * reading its own handle cost 3x more.  Freed slots are reused (the last
 * freed first); slabs are kept while the library is loaded: a handle used
 * after pph_data_unregister, even after pph_shutdown, is said to be so.
 */
#define PPH_SLAB_HANDLES 256

struct slab {
	struct slab *next;
	_Alignas(PPH_CACHE_LINE) struct pph_data slots[PPH_SLAB_HANDLES];
};

/* under slab_lock, held for a few instructions */
static pph_spinlock slab_lock;
static struct slab *slabs;
static unsigned slab_used; /* slots of the newest slab handed out */
static struct pph_data *free_slots; /* linked through next */

/* The handles that have device replicas, for eviction and pph_shutdown:
 * a handle joins when its first device replica is made (coherence.c), so
 * that registering one for host memory takes no global lock but a spin.
 * Lock order: a handle's coh_lock, then registry_lock; pph__data_lru holds
 * registry_lock and only tries coh_locks. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pph_data *registry;

static struct pph_data *slot_take(void)
{
	struct pph_data *d = free_slots;
	struct slab *s;

	if (d) {
		free_slots = d->next;
		return d;
	}
	if (!slabs || slab_used == PPH_SLAB_HANDLES) {
		if (!(s = aligned_alloc(PPH_CACHE_LINE, sizeof(*s))))
			return NULL;
		s->next = slabs;
		slabs = s;
		slab_used = 0;
	}
	return &slabs->slots[slab_used++];
}

/* The library is unloaded: no handle can be used again.  Held, the lock
 * says that a thread registers one still (or did in the parent this
 * process was forked from): the slabs are left to it. */
void pph__data_slabs_free(void)
{
	struct slab *s, *next;

	if (!pph__spin_trylock(&slab_lock))
		return;
	for (s = slabs, slabs = NULL; s; s = next) {
		next = s->next;
		free(s);
	}
	slab_used = 0;
	free_slots = NULL;
	pph__spin_unlock(&slab_lock);
}

static struct pph_data *data_new(enum pph_layout layout)
{
	struct pph_data *d;

	pph__spin_lock(&slab_lock);
	d = slot_take();
	pph__spin_unlock(&slab_lock);
	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->layout = layout;
	d->host.state = PPH_MODIFIED; /* the only valid copy */
	d->coh_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER; /* no call needed */
	return d;
}

/* Say what is wrong with using handle, in state, for what. */
static void handle_misuse(const struct pph_data *d, const char *what, enum pph_handle_state state)
{
	fprintf(stderr, "peppher: %s: handle %p %s\n", what, (const void *)d,
		state == PPH_HANDLE_FREE ? "is not registered (unregistered already?)" :
		state == PPH_HANDLE_PARTITIONED ? "is partitioned: pph_data_unpartition() it first" :
						  "is being unregistered");
}

/*
 * A registered handle becomes partitioned or is unregistered, one at a
 * time: partitioning twice would make two sets of blocks over one memory,
 * and a second unregister would put the slot on the free list twice, so
 * that two later registrations got the same handle.  Returns 0, or
 * -EBUSY / -EINVAL with a message.
 */
static int handle_enter(struct pph_data *d, enum pph_handle_state to, const char *what)
{
	enum pph_handle_state was = PPH_HANDLE_REGISTERED;

	if (atomic_compare_exchange_strong(&d->state, &was, to))
		return 0;
	handle_misuse(d, what, was);
	return was == PPH_HANDLE_FREE ? -EINVAL : -EBUSY;
}

/* A slot freed and registered again is a handle like any other: a stale
 * handle that names it cannot be told from the new one. */
int pph__data_usable(struct pph_data *d, const char *what)
{
	enum pph_handle_state state = atomic_load_explicit(&d->state, memory_order_relaxed);

	/* being unregistered: the combine of its reduction's accumulators,
	 * submitted by pph_data_unregister itself */
	if (state == PPH_HANDLE_REGISTERED || state == PPH_HANDLE_UNREGISTERING)
		return 0;
	handle_misuse(d, what, state);
	return state == PPH_HANDLE_FREE ? -EINVAL : -EBUSY;
}

int pph_vector_register(pph_data_handle *handle, void *ptr, size_t n,
			size_t elemsize)
{
	struct pph_data *d;

	uint64_t bytes;

	if (!handle || !elemsize)
		return -EINVAL;
	if (__builtin_mul_overflow((uint64_t)n, (uint64_t)elemsize, &bytes))
		return -EOVERFLOW;
	d = data_new(PPH_LAYOUT_VECTOR);
	if (!d)
		return -ENOMEM;
	d->host.iface.vector.ptr = ptr;
	d->host.iface.vector.n = n;
	d->host.iface.vector.elemsize = elemsize;
	d->bytes = bytes;
	*handle = d;
	return 0;
}

int pph_matrix_register(pph_data_handle *handle, void *ptr, size_t rows,
			size_t cols, size_t ld, size_t elemsize)
{
	struct pph_data *d;

	uint64_t bytes, extent;

	if (!handle || !elemsize || ld < cols)
		return -EINVAL;
	/* the data's bytes, and the host memory its rows span */
	if (__builtin_mul_overflow((uint64_t)rows, (uint64_t)cols, &bytes) ||
	    __builtin_mul_overflow(bytes, (uint64_t)elemsize, &bytes) ||
	    __builtin_mul_overflow((uint64_t)(rows ? rows - 1 : 0), (uint64_t)ld, &extent) ||
	    __builtin_add_overflow(extent, (uint64_t)cols, &extent) ||
	    __builtin_mul_overflow(extent, (uint64_t)elemsize, &extent))
		return -EOVERFLOW;
	d = data_new(PPH_LAYOUT_MATRIX);
	if (!d)
		return -ENOMEM;
	d->host.iface.matrix.ptr = ptr;
	d->host.iface.matrix.rows = rows;
	d->host.iface.matrix.cols = cols;
	d->host.iface.matrix.ld = ld;
	d->host.iface.matrix.elemsize = elemsize;
	d->bytes = bytes;
	*handle = d;
	return 0;
}

int pph_variable_register(pph_data_handle *handle, void *ptr, size_t size)
{
	struct pph_data *d;

	if (!handle || !size)
		return -EINVAL;
	d = data_new(PPH_LAYOUT_VARIABLE);
	if (!d)
		return -ENOMEM;
	d->host.iface.variable.ptr = ptr;
	d->host.iface.variable.size = size;
	d->bytes = size;
	*handle = d;
	return 0;
}

/* The copy that brings d's valid data to the host: from the first device
 * holding it.  Racy reads: an estimate needs no lock. */
static double fetch_home_us(const struct pph_data *d, uint64_t bytes)
{
	unsigned n;

	for (n = 1; n < pph__rt.nnodes; n++)
		if (pph__replica(d, n)->state != PPH_INVALID)
			return pph__transfer_time(n, 1, bytes);
	return 0;
}

void pph_data_set_host_reads(pph_data_handle handle, int yes)
{
	if (handle)
		handle->host_reads = yes != 0;
}

/*
 * The copies of d written on node to where its new version is likely read:
 * where the last version written on node was copied to be read, and home
 * where the host reads it (pph_data_set_host_reads).  Kept per writing
 * node: readers that ran where their data was written may follow it
 * elsewhere (a chain better on a GPU moves there whole), and the copies a
 * version written on the CPU needed say nothing of one written on the GPU.
 * A device's copy reaches another device through the host.  Without them
 * a step's copy task (the ODE solver's y = ynew between CUDA tasks on the
 * H100) ran on the CPU, charged its copy in and not the copy back to the
 * GPU's next reader.
 * What node's last version needed is forgotten once PPH_READERS_STALE
 * versions were written elsewhere since: the readers have moved since, or
 * the node would have written again.  Kept, it decided for good: the ODE
 * solver's k0 = k6, written on the GPU once at the start and read on the
 * CPU there, was charged that copy home on the GPU at every step, 100
 * steps on, and ran on the CPU, copying k6 home and k0 back each step.
 */
static double copies_to_readers(const struct pph_data *d, unsigned node, uint64_t bytes)
{
	/* the version there now, if written on node and read: its readers
	 * are done (a writer waits for them), its copies known */
	unsigned now = atomic_load_explicit(&d->copied_to, memory_order_relaxed), n, mask;
	uint16_t age = (uint16_t)(atomic_load_explicit(&d->versions, memory_order_relaxed) -
				  atomic_load_explicit(&d->wrote_at[node], memory_order_relaxed));
	double us = 0;

	if (atomic_load_explicit(&d->written_on, memory_order_relaxed) == node &&
	    (now & PPH_VERSION_READ))
		mask = now & ~PPH_VERSION_READ;
	else if (age <= PPH_READERS_STALE)
		mask = atomic_load_explicit(&d->copied_after[node], memory_order_relaxed);
	else
		mask = 0; /* not known: a try there tells */

	if (d->host_reads)
		mask |= 1u;
	mask &= ~(1u << node);
	if (node && mask)
		us += pph__transfer_time(node, 1, bytes);
	for (n = 1; n < pph__rt.nnodes; n++)
		if (mask >> n & 1u)
			us += pph__transfer_time(n, 0, bytes);
	return us;
}

/*
 * The copies task needs before it can run on node, and those of what it
 * writes there to where it is read next (copies_to_readers).
 * A copy in serves every task that reads the same version of the data on
 * that node: each reader is charged its share, as many readers as the
 * data's versions have had (a step's state vector, read by 7 tasks of an
 * ODE solver's step), or as this version has had so far (a matrix never
 * written).  Charged whole to the first reader, a copy outweighs
 * a fast kernel on each reader alike: a chain that would run faster on a
 * GPU, its data and all, stays on the CPU, one task at a time.  Not for a
 * hybrid split's blocks (shared 0): a vector every block reads is shared
 * by the device's few blocks only, and shared by all it gave the device
 * long blocks (Fig. 5's SpMV here: 1.17-1.23 times faster than the device
 * alone moving 76-170 MB, against 1.12-1.59 times moving 13-128 in four
 * runs without).
 */
double pph__transfer_estimate(const struct pph_task *task, unsigned node, int shared)
{
	double us = 0;
	unsigned i;

	for (i = 0; i < task->nbuffers; i++) {
		const struct pph_data *d = task->handles[i];
		uint64_t bytes = pph__data_size(d);
		double readers, copies = 0;
		unsigned listed;

		if (task->modes[i] == PPH_REDUX) { /* an accumulator there and back */
			if (node)
				us += pph__transfer_time(node, 0, bytes) +
				      pph__transfer_time(node, 1, bytes);
			continue;
		}
		if (task->modes[i] & PPH_W)
			us += copies_to_readers(d, node, bytes);
		if (!(task->modes[i] & PPH_R) || pph__replica(d, node)->state != PPH_INVALID)
			continue;
		if (d->host.state == PPH_INVALID) /* devices exchange through the host */
			copies += fetch_home_us(d, bytes);
		if (node)
			copies += pph__transfer_time(node, 0, bytes);
		/* the version's readers: as many as the versions before had,
		 * less those that have read it already, elsewhere (a copy here
		 * would be valid), whom a copy now does not serve; or, more
		 * listed already (data never written, read on and on: a
		 * matrix read at each step), as many as are listed */
		readers = atomic_load_explicit(&d->readers_per_version, memory_order_relaxed);
		listed = atomic_load_explicit(&d->version_reads, memory_order_relaxed);
		if (listed > readers)
			readers = listed;
		else
			readers -= atomic_load_explicit(&d->version_started, memory_order_relaxed);
		us += shared && readers > 1 ? copies / readers : copies;
	}
	return us;
}

/* bytes into base, or NULL: a block of data registered at NULL ("none")
 * is NULL too, whose tasks keep to host variants (submit.c). */
static void *block_at(void *base, size_t bytes)
{
	return base ? (char *)base + bytes : NULL;
}

/* A rows x cols block of the matrix parent whose first element is (r0, c0):
 * a view over the parent's host memory with its leading dimension. */
static int matrix_view(pph_data_handle parent, size_t r0, size_t c0, size_t rows,
		       size_t cols, pph_data_handle *view)
{
	const struct pph_matrix_iface *p = &parent->host.iface.matrix;

	return pph_matrix_register(view, block_at(p->ptr, (r0 * p->ld + c0) * p->elemsize),
				   rows, cols, p->ld, p->elemsize);
}

/* Elements of a vector, rows of a matrix: what a split call splits. */
static size_t split_total(const struct pph_data *d)
{
	return d->layout == PPH_LAYOUT_VECTOR ? d->host.iface.vector.n : d->host.iface.matrix.rows;
}

/* The block of len elements or rows of parent from first on. */
static int row_block(pph_data_handle parent, size_t first, size_t len, pph_data_handle *block)
{
	const union pph_iface *p = &parent->host.iface;

	return parent->layout == PPH_LAYOUT_VECTOR ?
		       pph_vector_register(block, block_at(p->vector.ptr, first * p->vector.elemsize),
					   len, p->vector.elemsize) :
		       matrix_view(parent, first, 0, len, p->matrix.cols, block);
}

/* Undo a partition of parent into n blocks: each block's data comes home
 * as it is unregistered, and the parent's host replica, the valid one
 * since partitioning, is whole again. */
static void unpartition(pph_data_handle parent, unsigned n, pph_data_handle *blocks)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		blocks[i]->parent = NULL;
		pph_data_unregister(blocks[i]);
	}
	parent->nblocks = 0;
	atomic_store(&parent->state, PPH_HANDLE_REGISTERED);
}

/* The n blocks made: they belong to parent, which only
 * pph_data_unpartition gives back whole. */
static void partitioned(pph_data_handle parent, unsigned n, pph_data_handle *blocks)
{
	unsigned i;

	for (i = 0; i < n; i++)
		blocks[i]->parent = parent;
	parent->nblocks = n;
}

/* The parent becomes partitioned, its data home and the devices' copies
 * invalid: the blocks are new handles over its host memory.  Its own
 * acquire, since pph_data_acquire refuses a partitioned handle. */
static int partition_enter(pph_data_handle parent, const char *what)
{
	int rc = pph__refused_in_forked_child(what), entered;

	/* the variant running here holds it: waiting for its own task hung */
	if (rc == 0 && pph__running.task)
		rc = pph__waits_for_running(parent, PPH_RW, what);
	if (rc == 0)
		rc = handle_enter(parent, PPH_HANDLE_PARTITIONED, what);
	if (rc != 0)
		return rc;
	entered = pph__enter_finishing(); /* see pph_data_unregister */
	pph__deps_host_wait(parent, PPH_RW);
	rc = pph__coherence_acquire(parent, 0, PPH_RW);
	if (entered > 0)
		pph__leave();
	if (rc != 0)
		atomic_store(&parent->state, PPH_HANDLE_REGISTERED);
	return rc;
}

static int partition(pph_data_handle parent, unsigned nparts, pph_data_handle *children,
		     int by_columns)
{
	const union pph_iface *p;
	size_t total, first = 0, i;
	int rc;

	if (!parent || !children || !nparts || parent->layout == PPH_LAYOUT_VARIABLE ||
	    (by_columns && parent->layout != PPH_LAYOUT_MATRIX))
		return -EINVAL;
	p = &parent->host.iface;
	total = parent->layout == PPH_LAYOUT_VECTOR ? p->vector.n :
		by_columns ? p->matrix.cols : p->matrix.rows;
	if (nparts > total)
		return -EINVAL;
	if ((rc = partition_enter(parent, "pph_data_partition")) != 0)
		return rc;
	for (i = 0; rc == 0 && i < nparts; i++) {
		/* block sizes differ by at most one */
		size_t len = total / nparts + (i < total % nparts);

		if (parent->layout == PPH_LAYOUT_VECTOR)
			rc = pph_vector_register(&children[i],
						 block_at(p->vector.ptr, first * p->vector.elemsize),
						 len, p->vector.elemsize);
		else if (by_columns) /* a sub-view: the parent's leading dimension */
			rc = matrix_view(parent, 0, first, p->matrix.rows, len, &children[i]);
		else
			rc = matrix_view(parent, first, 0, len, p->matrix.cols, &children[i]);
		first += len;
	}
	if (rc) /* the blocks made so far (the i-th failed) */
		unpartition(parent, (unsigned)(i ? i - 1 : 0), children);
	else
		partitioned(parent, nparts, children);
	return rc;
}

int pph_data_partition(pph_data_handle parent, unsigned nparts, pph_data_handle *children)
{
	return partition(parent, nparts, children, 0);
}

int pph_data_partition_columns(pph_data_handle parent, unsigned nparts,
			       pph_data_handle *children)
{
	return partition(parent, nparts, children, 1);
}

int pph_data_partition_sizes(pph_data_handle parent, unsigned nparts, const size_t *sizes,
			     pph_data_handle *children)
{
	size_t total = 0, first = 0, i;
	int rc;

	if (!parent || !children || !sizes || !nparts || parent->layout == PPH_LAYOUT_VARIABLE)
		return -EINVAL;
	for (i = 0; i < nparts; i++)
		if (!sizes[i] || __builtin_add_overflow(total, sizes[i], &total))
			return -EINVAL;
	if (total != split_total(parent))
		return -EINVAL;
	if ((rc = partition_enter(parent, "pph_data_partition_sizes")) != 0)
		return rc;
	for (i = 0; rc == 0 && i < nparts; first += sizes[i++])
		rc = row_block(parent, first, sizes[i], &children[i]);
	if (rc)
		unpartition(parent, (unsigned)(i ? i - 1 : 0), children);
	else
		partitioned(parent, nparts, children);
	return rc;
}

/*
 * The blocks of an asynchronous split call (wrappers.c), made at once: the
 * parent stays registered, its tasks ordered around the blocks' by the
 * call's scatter and gather tasks, and nobody but the call sees the
 * blocks.  Equal blocks where sizes is NULL.
 */
int pph__data_blocks(pph_data_handle parent, unsigned n, const size_t *sizes,
		     pph_data_handle *blocks)
{
	size_t total = split_total(parent), first = 0, len;
	unsigned i;
	int rc = 0;

	for (i = 0; rc == 0 && i < n; first += len, i++) {
		len = sizes ? sizes[i] : total / n + (i < total % n);
		if ((rc = row_block(parent, first, len, &blocks[i])) == 0)
			blocks[i]->parent = parent;
	}
	if (rc)
		pph__data_blocks_drop(i - 1, blocks);
	return rc;
}

void pph__data_blocks_drop(unsigned n, pph_data_handle *blocks)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		blocks[i]->parent = NULL;
		pph_data_unregister(blocks[i]);
	}
}

int pph_data_partition_tiles(pph_data_handle parent, size_t tile_rows, size_t tile_cols,
			     pph_data_handle *children)
{
	const struct pph_matrix_iface *p;
	size_t nr, nc, i, j, made = 0;
	int rc;

	if (!parent || !children || !tile_rows || !tile_cols ||
	    parent->layout != PPH_LAYOUT_MATRIX)
		return -EINVAL;
	p = &parent->host.iface.matrix;
	nr = pph_tile_count(p->rows, tile_rows);
	nc = pph_tile_count(p->cols, tile_cols);
	if (!nr || !nc)
		return -EINVAL;
	if ((rc = partition_enter(parent, "pph_data_partition_tiles")) != 0)
		return rc;
	for (i = 0; rc == 0 && i < nr; i++)
		for (j = 0; rc == 0 && j < nc; j++, made++) {
			size_t r0 = i * tile_rows, c0 = j * tile_cols;
			size_t rows = p->rows - r0 < tile_rows ? p->rows - r0 : tile_rows;
			size_t cols = p->cols - c0 < tile_cols ? p->cols - c0 : tile_cols;

			rc = matrix_view(parent, r0, c0, rows, cols, &children[made]);
		}
	if (rc) /* the tiles made so far (the last one failed) */
		unpartition(parent, (unsigned)(made ? made - 1 : 0), children);
	else
		partitioned(parent, (unsigned)made, children);
	return rc;
}

void pph_data_unpartition(pph_data_handle parent, unsigned nparts,
			  pph_data_handle *children)
{
	unsigned i, n;

	if (!parent || !children)
		return;
	if (atomic_load(&parent->state) != PPH_HANDLE_PARTITIONED) {
		fprintf(stderr, "peppher: pph_data_unpartition: handle %p is not partitioned\n",
			(void *)parent);
		return;
	}
	/* every block, or the data of those left out would be lost */
	if (nparts != parent->nblocks) {
		fprintf(stderr, "peppher: pph_data_unpartition: handle %p has %u blocks, not %u: nothing done\n",
			(void *)parent, parent->nblocks, nparts);
		return;
	}
	/* each block once (one twice leaves another out, still in use): a
	 * block seen has its parent cleared until the check is done */
	for (i = 0; i < nparts && children[i] && children[i]->parent == parent &&
		    atomic_load(&children[i]->state) != PPH_HANDLE_PARTITIONED;
	     i++)
		children[i]->parent = NULL;
	for (n = 0; n < i; n++)
		children[n]->parent = parent;
	if (i < nparts) {
		if (children[i] && atomic_load(&children[i]->state) == PPH_HANDLE_PARTITIONED)
			fprintf(stderr, "peppher: pph_data_unpartition: block %u (%p) is partitioned itself: pph_data_unpartition() it first; nothing done\n",
				i, (void *)children[i]);
		else
			fprintf(stderr, "peppher: pph_data_unpartition: block %u (%p) is not one of handle %p's, or is given twice: nothing done\n",
				i, (void *)children[i], (void *)parent);
		return;
	}
	unpartition(parent, nparts, children);
}

void pph__data_flush_all(void)
{
	struct pph_data *d, **all = NULL;
	size_t n = 0, cap = 0, i;

	/* no task runs now; the registry is not held while coh_locks are
	 * taken, which would invert the order of eviction (memory.c) */
	pthread_mutex_lock(&registry_lock);
	for (d = registry; d; d = d->next) {
		if (n == cap) {
			struct pph_data **more = realloc(all, (cap = cap ? 2 * cap : 64) * sizeof(*all));

			if (!more)
				break;
			all = more;
		}
		all[n++] = d;
	}
	pthread_mutex_unlock(&registry_lock);
	for (i = 0; i < n; i++)
		pph__coherence_drop_devices(all[i], 1);
	free(all);
}

struct pph_data *pph__data_lru(unsigned node)
{
	struct pph_data *d, *best = NULL;

	pthread_mutex_lock(&registry_lock);
	for (d = registry; d; d = d->next) {
		const struct pph_replica *r = pph__replica(d, node);

		/* a racy first look; confirmed under the handle's lock */
		if (!r->allocated || r->pinned ||
		    (best && r->last_use >= pph__replica(best, node)->last_use))
			continue;
		if (pthread_mutex_trylock(&d->coh_lock) != 0)
			continue;
		if (!r->allocated || r->pinned) {
			pthread_mutex_unlock(&d->coh_lock);
			continue;
		}
		if (best)
			pthread_mutex_unlock(&best->coh_lock);
		best = d;
	}
	pthread_mutex_unlock(&registry_lock);
	return best;
}

int pph_data_acquire(pph_data_handle handle, enum pph_access mode)
{
	int rc, entered;

	if (!handle || (mode != PPH_R && mode != PPH_W && mode != PPH_RW))
		return -EINVAL;
	switch (atomic_load_explicit(&handle->state, memory_order_relaxed)) {
	case PPH_HANDLE_FREE:
		handle_misuse(handle, "pph_data_acquire", PPH_HANDLE_FREE);
		return -EINVAL;
	case PPH_HANDLE_PARTITIONED: /* its blocks hold the data now */
		handle_misuse(handle, "pph_data_acquire", PPH_HANDLE_PARTITIONED);
		return -EBUSY;
	default:
		break;
	}
	/* a forked child (the only thread here: no locks) reads the host
	 * copy when it is the only one and no task of the parent's uses it;
	 * else it would wait for those tasks, or copy from the devices */
	if (pph__forked_child)
		return !handle->last_writer && !handle->nreaders &&
				       !atomic_load_explicit(&handle->devices, memory_order_relaxed) ?
			       0 :
			       pph__not_running("pph_data_acquire");
	if (pph__running.task && pph__waits_for_running(handle, mode, "pph_data_acquire"))
		return -EDEADLK;
	entered = pph__enter_finishing(); /* see pph_data_unregister */
	pph__deps_host_wait(handle, mode);
	rc = pph__coherence_acquire(handle, 0, mode);
	if (entered > 0)
		pph__leave();
	return rc;
}

void pph__data_set_container(pph_data_handle handle, struct pph_container *c)
{
	handle->container = c;
}

int pph__data_held_here(pph_data_handle handle, const char *what)
{
	return pph__running.task && pph__waits_for_running(handle, PPH_RW, what) != 0;
}

/* pph_data_unregister, with the host copy made valid first where fetch. */
static void unregister(pph_data_handle handle, int fetch)
{
	struct pph_replica *devices;
	int entered;

	if (!handle)
		return;
	if (handle->parent) {
		fprintf(stderr, "peppher: pph_data_unregister: handle %p is a block of handle %p: pph_data_unpartition() that one\n",
			(void *)handle, (void *)handle->parent);
		return;
	}
	/* the parent's tasks may use it: left as it is */
	if (pph__refused_in_forked_child("pph_data_unregister"))
		return;
	if (pph__data_held_here(handle, "pph_data_unregister"))
		return;
	if (handle_enter(handle, PPH_HANDLE_UNREGISTERING, "pph_data_unregister") != 0)
		return;

	/* its data home before pph_shutdown tears the devices down (it
	 * waits for this), or after it has brought them home: an
	 * application thread unregistering after its call read the nodes
	 * as pph_shutdown cleared them */
	entered = pph__enter_finishing();
	pph__deps_data_wait(handle);
	pph__coherence_drop_devices(handle, fetch);
	devices = atomic_load_explicit(&handle->devices, memory_order_relaxed);
	if (devices) {
		pthread_mutex_lock(&registry_lock);
		if (handle->prev)
			handle->prev->next = handle->next;
		else
			registry = handle->next;
		if (handle->next)
			handle->next->prev = handle->prev;
		pthread_mutex_unlock(&registry_lock);
		free(devices); /* unlinked: pph__data_lru no longer looks at them */
	}
	if (entered > 0)
		pph__leave();
	pthread_mutex_destroy(&handle->coh_lock);
	pph__spin_lock(&slab_lock);
	atomic_store_explicit(&handle->state, PPH_HANDLE_FREE, memory_order_relaxed);
	handle->next = free_slots;
	free_slots = handle;
	pph__spin_unlock(&slab_lock);
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

void pph__data_registry_add(struct pph_data *d)
{
	pthread_mutex_lock(&registry_lock);
	d->prev = NULL;
	d->next = registry;
	if (registry)
		registry->prev = d;
	registry = d;
	pthread_mutex_unlock(&registry_lock);
}
