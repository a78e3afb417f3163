/*
 * Coherence: each handle has one replica per memory node in MSI state
 * (modified: the only valid copy; shared: valid, others may be too;
 * invalid).  Data moves only when a task or the host needs an invalid
 * replica; a write invalidates every other replica.  Devices exchange data
 * through host memory.  The copies themselves are the nodes' operations.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

const struct pph_replica pph__no_replica = { .state = PPH_INVALID };

int pph__node_add(enum pph_arch arch, const struct pph_node_ops *ops, void *driver)
{
	unsigned n = pph__rt.nnodes;

	if (n >= PPH_MAX_NODES)
		return -ENOSPC;
	pph__rt.nodes[n].arch = arch;
	pph__rt.nodes[n].ops = ops;
	pph__rt.nodes[n].driver = driver;
	atomic_store(&pph__rt.nodes[n].copies_in, 0);
	atomic_store(&pph__rt.nodes[n].copies_waited, 0);
	pph__mem_node_init(n);
	pph__rt.nnodes = n + 1;
	return (int)n;
}

static const struct pph_node_ops *ops_of(unsigned node)
{
	return pph__rt.nodes[node].ops;
}

/*
 * A copy to a device is enqueued, not waited for: the variant's kernels
 * come after it on the device.  A run measured from its launch then holds
 * the copy's time too, and dmda, which adds the predicted copies to the
 * prediction, counted them twice: the ODE solver's `ode_rhs` took 14 us on
 * an H100 in the CUDA program, which never copies, and 50 us a run in the
 * dynamic program, whose runs there copied its input in.  Waited for only
 * where copies were enqueued since the last wait (by this task's acquire
 * or a prefetch), so a task whose data is on the device pays nothing.
 */
void pph__wait_copies_in(unsigned node)
{
	struct pph_node *n = &pph__rt.nodes[node];
	unsigned long issued = atomic_load(&n->copies_in);

	if (issued == atomic_load(&n->copies_waited))
		return;
	n->ops->wait_copies(node);
	atomic_store(&n->copies_waited, issued);
}

void pph__count_transfer(int to_host, uint64_t bytes)
{
	atomic_fetch_add(&pph__rt.transfers[to_host], 1);
	atomic_fetch_add(&pph__rt.transfer_bytes[to_host], bytes);
}

int pph__node_copy(unsigned node, enum pph_layout layout, const union pph_iface *from,
		   union pph_iface *to, int to_host, uint64_t bytes)
{
	const struct pph_node_ops *ops = ops_of(node);
	/* a copy home is waited for: its time teaches the transfer model */
	double t0 = pph__trace_enabled() || to_host ? pph__now_us() : 0, us;
	int rc = to_host ? ops->to_host(node, layout, from, to) :
			   ops->to_device(node, layout, from, to);

	if (rc)
		return rc;
	if (!to_host)
		atomic_fetch_add(&pph__rt.nodes[node].copies_in, 1);
	pph__count_transfer(to_host, bytes);
	if (t0) {
		us = pph__now_us() - t0;
		if (to_host)
			pph__transfer_observed(node, bytes, us);
		if (pph__trace_enabled())
			pph__trace_transfer(to_host, bytes, t0, us);
	}
	return 0;
}

/* One copy of d between the host and node. */
static int copy(struct pph_data *d, unsigned node, int to_host)
{
	struct pph_replica *dev = pph__device_replica(d, node);

	return to_host ? pph__node_copy(node, d->layout, &dev->iface, &d->host.iface, 1,
					pph__data_size(d)) :
			 pph__node_copy(node, d->layout, &d->host.iface, &dev->iface, 0,
					pph__data_size(d));
}

/* Make d's device replicas (all invalid, unallocated), if not yet made. */
static int make_devices(struct pph_data *d)
{
	struct pph_replica *dev;

	if (atomic_load_explicit(&d->devices, memory_order_relaxed))
		return 0;
	dev = calloc(PPH_MAX_NODES - 1, sizeof(*dev)); /* PPH_INVALID is 0 */
	if (!dev)
		return -ENOMEM;
	atomic_store_explicit(&d->devices, dev, memory_order_release);
	pph__data_registry_add(d);
	return 0;
}

/* Give node a device buffer of the handle's shape, if it has none. */
static int ensure_allocated(struct pph_data *d, unsigned node, int may_evict)
{
	struct pph_replica *r, *host = &d->host;
	void *buf;
	int rc;

	if ((rc = make_devices(d)) != 0)
		return rc;
	r = pph__device_replica(d, node);
	if (r->allocated)
		return 0;
	rc = may_evict ? pph__mem_alloc(node, (size_t)pph__data_size(d), &buf) :
			 pph__mem_alloc_free_room(node, (size_t)pph__data_size(d), &buf);
	if (rc)
		return rc;
	r->iface = host->iface;
	if (d->layout == PPH_LAYOUT_MATRIX)
		r->iface.matrix.ld = r->iface.matrix.cols; /* packed */
	r->iface.vector.ptr = buf; /* ptr is the first member of every iface */
	r->allocated = 1;
	return 0;
}

/* Make the host replica valid.  Lock held. */
static int fetch_to_host(struct pph_data *d)
{
	unsigned n;
	int rc;

	if (d->host.state != PPH_INVALID)
		return 0;
	for (n = 1; n < pph__rt.nnodes && d->devices; n++) {
		struct pph_replica *r = pph__device_replica(d, n);

		if (r->state == PPH_INVALID)
			continue;
		rc = copy(d, n, 1);
		if (rc)
			return rc;
		d->host.state = PPH_SHARED;
		r->state = PPH_SHARED;
		return 0;
	}
	return -EIO; /* no valid replica anywhere: cannot happen */
}

/*
 * Where d's version was read (pph__transfer_estimate): bits into its
 * copied_to, a node's when copied there to be read, PPH_VERSION_READ when
 * read at all.  Stored only when they change: a chain whose data stays on
 * one node keeps the handle's line shared.  coh_lock held.
 */
static void note_version(struct pph_data *d, unsigned bits)
{
	uint16_t seen = atomic_load_explicit(&d->copied_to, memory_order_relaxed);

	if ((seen | bits) != seen)
		atomic_store_explicit(&d->copied_to, (uint16_t)(seen | bits), memory_order_relaxed);
}

/* A write on node starts a version not read yet: where the version before
 * was copied, if it was read, is kept for the node that wrote it (an
 * unread version says nothing of its readers).  coh_lock held. */
static void new_version(struct pph_data *d, unsigned node)
{
	uint8_t by = atomic_load_explicit(&d->written_on, memory_order_relaxed);
	uint16_t to = atomic_load_explicit(&d->copied_to, memory_order_relaxed);
	uint8_t nodes = (uint8_t)(to & ~PPH_VERSION_READ);
	uint16_t version;

	if ((to & PPH_VERSION_READ) &&
	    atomic_load_explicit(&d->copied_after[by], memory_order_relaxed) != nodes)
		atomic_store_explicit(&d->copied_after[by], nodes, memory_order_relaxed);
	if (by != node)
		atomic_store_explicit(&d->written_on, (uint8_t)node, memory_order_relaxed);
	version = (uint16_t)(atomic_load_explicit(&d->versions, memory_order_relaxed) + 1);
	atomic_store_explicit(&d->versions, version, memory_order_relaxed);
	atomic_store_explicit(&d->wrote_at[node], version, memory_order_relaxed);
	if (to)
		atomic_store_explicit(&d->copied_to, 0, memory_order_relaxed);
	if (atomic_load_explicit(&d->version_started, memory_order_relaxed))
		atomic_store_explicit(&d->version_started, 0, memory_order_relaxed);
}

/* A copy of d's valid data to node, if it has none (to be read there). */
static int make_valid(struct pph_data *d, unsigned node)
{
	int rc;

	if (pph__replica(d, node)->state != PPH_INVALID)
		return 0;
	rc = fetch_to_host(d);
	if (rc || node == 0) {
		if (!rc)
			note_version(d, 1u);
		return rc;
	}
	rc = copy(d, node, 0); /* node's buffer is allocated: ensure_allocated */
	if (rc)
		return rc;
	note_version(d, 1u << node);
	pph__device_replica(d, node)->state = PPH_SHARED;
	if (d->host.state == PPH_MODIFIED)
		d->host.state = PPH_SHARED;
	return 0;
}

/* The replica states of d, into saved[node].  coh_lock held. */
static void save_states(const struct pph_data *d, uint8_t saved[PPH_MAX_NODES])
{
	unsigned n;

	for (n = 0; n < pph__rt.nnodes; n++)
		saved[n] = (uint8_t)pph__replica(d, n)->state;
}

/* pph__coherence_acquire, first saving d's replica states into saved when
 * it is not NULL. */
static int acquire(struct pph_data *d, unsigned node, enum pph_access mode,
		   uint8_t *saved)
{
	unsigned n;
	int rc = 0;

	pthread_mutex_lock(&d->coh_lock);
	if (saved)
		save_states(d, saved);
	if (node != 0)
		rc = ensure_allocated(d, node, 1);
	if (!rc && node != 0) { /* held until the task releases it */
		pph__device_replica(d, node)->pinned++;
		pph__device_replica(d, node)->last_use = pph__mem_tick();
	}
	if (!rc && (mode & PPH_R))
		rc = make_valid(d, node);
	if (!rc && (mode & PPH_R)) {
		note_version(d, PPH_VERSION_READ);
		atomic_fetch_add_explicit(&d->version_started, 1, memory_order_relaxed);
	}
	if (!rc && (mode & PPH_W)) {
		new_version(d, node);
		if (node != 0)
			d->host.state = PPH_INVALID;
		for (n = 1; n < pph__rt.nnodes && d->devices; n++)
			if (n != node)
				pph__device_replica(d, n)->state = PPH_INVALID;
		if (node == 0)
			d->host.state = PPH_MODIFIED;
		else
			pph__device_replica(d, node)->state = PPH_MODIFIED;
	}
	pthread_mutex_unlock(&d->coh_lock);
	return rc;
}

int pph__coherence_acquire(struct pph_data *d, unsigned node, enum pph_access mode)
{
	if (pph__rt.nnodes == 1)
		return 0; /* host memory only: always valid there, nothing to track */
	return acquire(d, node, mode, NULL);
}

void pph__task_prefetch(const struct pph_task *task, unsigned node)
{
	unsigned i;

	if (node == 0)
		return;
	for (i = 0; i < task->nbuffers; i++) {
		struct pph_data *d = task->handles[i];

		if (!(task->modes[i] & PPH_R))
			continue;
		/* a busy handle is left to the worker; so is a two-hop copy */
		if (pthread_mutex_trylock(&d->coh_lock) != 0)
			continue;
		if (pph__replica(d, node)->state == PPH_INVALID && d->host.state != PPH_INVALID &&
		    ensure_allocated(d, node, 0) == 0 && make_valid(d, node) == 0) {
			pph__device_replica(d, node)->last_use = pph__mem_tick();
			atomic_fetch_add(&pph__rt.prefetches, 1);
		}
		pthread_mutex_unlock(&d->coh_lock);
	}
}

void pph__coherence_release(struct pph_data *d, unsigned node)
{
	if (node == 0)
		return;
	pthread_mutex_lock(&d->coh_lock);
	pph__device_replica(d, node)->pinned--;
	pthread_mutex_unlock(&d->coh_lock);
}

void pph__coherence_drop_devices(struct pph_data *d, int fetch)
{
	unsigned n;

	if (pph__rt.nnodes <= 1)
		return; /* host memory only: no device replica (pph_shutdown dropped
			 * those of an earlier run) */
	pthread_mutex_lock(&d->coh_lock);
	if (fetch && fetch_to_host(d) != 0)
		fprintf(stderr, "peppher: warning: could not copy data back to the host\n");
	for (n = 1; n < PPH_MAX_NODES && d->devices; n++) {
		struct pph_replica *r = pph__device_replica(d, n);

		if (r->allocated && n < pph__rt.nnodes) /* kept for the next handle */
			pph__mem_free(n, (size_t)pph__data_size(d), r->iface.vector.ptr);
		r->allocated = 0;
		r->state = PPH_INVALID;
	}
	d->host.state = PPH_MODIFIED;
	pthread_mutex_unlock(&d->coh_lock);
}

void pph_transfer_stats_get(struct pph_transfer_stats *s)
{
	s->to_device = atomic_load(&pph__rt.transfers[0]);
	s->to_host = atomic_load(&pph__rt.transfers[1]);
	s->bytes_to_device = atomic_load(&pph__rt.transfer_bytes[0]);
	s->bytes_to_host = atomic_load(&pph__rt.transfer_bytes[1]);
	s->prefetches = atomic_load(&pph__rt.prefetches);
	pph__mem_stats(s);
}

void pph_transfer_stats_reset(void)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		atomic_store(&pph__rt.transfers[i], 0);
		atomic_store(&pph__rt.transfer_bytes[i], 0);
	}
	atomic_store(&pph__rt.prefetches, 0);
	pph__mem_stats_reset();
}

/* Buffer i of t, acquired on node, is done with. */
static void release_buffer(struct pph_task *t, unsigned i, unsigned node)
{
	if (t->modes[i] == PPH_REDUX)
		pph__redux_release(t, i);
	else
		pph__coherence_release(t->handles[i], node);
}

static void restore_states(struct pph_data *d, const uint8_t saved[PPH_MAX_NODES]);

/*
 * t's replicas on device node are the most recently used from now: room
 * made for one of its buffers evicts other data first (it evicted a
 * buffer of the task's own that was to be acquired next, to copy it back
 * at once).
 */
static void touch_replicas(struct pph_task *t, unsigned node)
{
	unsigned i;

	for (i = 0; i < t->nbuffers; i++) {
		struct pph_data *d = t->handles[i];

		if (t->modes[i] == PPH_REDUX || !atomic_load_explicit(&d->devices, memory_order_relaxed))
			continue;
		pthread_mutex_lock(&d->coh_lock);
		if (pph__device_replica(d, node)->allocated)
			pph__device_replica(d, node)->last_use = pph__mem_tick();
		pthread_mutex_unlock(&d->coh_lock);
	}
}

static int acquire_on_nodes(struct pph_task *t, unsigned node, void *buffers[],
			    struct pph_replica_states *saved)
{
	unsigned i;

	if (node != 0 && t->nbuffers > 1)
		touch_replicas(t, node);
	for (i = 0; i < t->nbuffers; i++) {
		int rc;

		if (t->modes[i] == PPH_REDUX) /* an accumulator of its own (redux.c) */
			rc = pph__redux_acquire(t, i, node, &buffers[i]);
		else
			rc = acquire(t->handles[i], node, t->modes[i],
				     saved && (t->modes[i] & PPH_W) ? saved->s[i] : NULL);
		if (rc) {
			/* the task does not run: what it would have written is
			 * as it was (acquiring it for writing marked the host
			 * copy invalid; the device buffer, reused from another
			 * handle, came home at the next read) */
			while (i-- > 0) {
				if (saved && t->modes[i] != PPH_REDUX && (t->modes[i] & PPH_W))
					restore_states(t->handles[i], saved->s[i]);
				release_buffer(t, i, node);
			}
			return rc;
		}
		if (t->modes[i] != PPH_REDUX)
			buffers[i] = node ? &pph__device_replica(t->handles[i], node)->iface :
					    &t->handles[i]->host.iface;
	}
	return 0;
}

int pph__task_acquire_data(struct pph_task *t, unsigned node, void *buffers[],
			   struct pph_replica_states *saved)
{
	unsigned i;

	if (pph__rt.nnodes > 1) /* a call apart: this path saves no registers */
		return acquire_on_nodes(t, node, buffers, saved);
	for (i = 0; i < t->nbuffers; i++) /* host memory only: nothing to track */
		buffers[i] = t->modes[i] != PPH_REDUX ? &t->handles[i]->host.iface :
							pph__redux_buffer(t, i);
	return 0;
}

void pph__task_release_data(struct pph_task *t, unsigned node)
{
	unsigned i;

	if (node == 0)
		return; /* host replicas are not pinned, accumulators stay home */
	for (i = 0; i < t->nbuffers; i++)
		release_buffer(t, i, node);
}

/*
 * What a written buffer's replicas were before a failed run.  The variant
 * left the data as it found it (pph_variant_failed), or a device error
 * stopped it at some point: either way the replicas valid before still
 * hold the data, except node's own when it was not valid before (a write
 * there began from nothing).  A device replica evicted meanwhile stays
 * invalid.  Later buffers first: a handle named twice gets the states of
 * its first acquire, from before the task.
 */
static void restore_states(struct pph_data *d, const uint8_t saved[PPH_MAX_NODES])
{
	unsigned n;

	pthread_mutex_lock(&d->coh_lock);
	for (n = 0; n < pph__rt.nnodes; n++) {
		struct pph_replica *r;
		enum pph_replica_state was = (enum pph_replica_state)saved[n];

		if (n == 0)
			r = &d->host;
		else if (atomic_load_explicit(&d->devices, memory_order_relaxed))
			r = pph__device_replica(d, n);
		else
			continue;
		if (n != 0 && !r->allocated)
			was = PPH_INVALID;
		r->state = was;
	}
	pthread_mutex_unlock(&d->coh_lock);
}

void pph__task_restore_data(struct pph_task *t, const struct pph_replica_states *saved)
{
	unsigned i;

	if (pph__rt.nnodes == 1)
		return; /* one replica: the variant left it as it was */
	for (i = t->nbuffers; i-- > 0;)
		if (t->modes[i] & PPH_W)
			restore_states(t->handles[i], saved->s[i]);
}
