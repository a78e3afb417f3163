/*
 * Device memory.  Every device allocation goes through here, so that
 *  - a freed buffer is kept and given to the next allocation of the same
 *    size (registering and unregistering the same arrays call after call
 *    then costs no device allocation), up to a bound (cache_bound below),
 *    and
 *  - a node stays under its limit (PEPPHER_LIMIT_OPENCL_MEM and
 *    PEPPHER_LIMIT_CUDA_MEM, in MiB, as in StarPU; none by default) and
 *    survives the device running out: cached buffers go first, then the
 *    least recently used replicas that no running task holds, written back
 *    to the host first when they hold the only valid copy.
 *
 * Lock order: a handle's coh_lock, then a node's lock, then the registry;
 * victims' coh_locks are only tried, never waited for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct cached {
	size_t bytes;
	void *buf;
	struct cached *next;
};

struct mem_node {
	pthread_mutex_t lock;
	size_t limit; /* 0: none */
	size_t used;  /* allocated on the device, cached buffers included */
	struct cached *cache; /* the most recently freed first */
	size_t cached;	      /* bytes in cache */
	size_t cache_bound;   /* see pph__mem_set_device */
};

static struct mem_node mem[PPH_MAX_NODES];
static atomic_ulong nallocs, nreuses, nevictions;
static atomic_uint_fast64_t clock_;

/* PEPPHER_LIMIT_{OPENCL,CUDA}_MEM in bytes (0: none), read by pph_init. */
static size_t limits[PPH_ARCH_COUNT];
static char limit_error[160];

/* A count of MiB: digits only ("-1" would read as the largest count), and
 * one that fits in a size_t once shifted. */
static int env_limit(const char *name, size_t *bytes)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long mib;

	*bytes = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	mib = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || errno || *end || !mib || mib > (SIZE_MAX >> 20)) {
		snprintf(limit_error, sizeof(limit_error),
			 "%s=%s: expected a size in MiB, 1 or more", name, v);
		return -EINVAL;
	}
	*bytes = (size_t)mib << 20;
	return 0;
}

int pph__mem_limits_init(void)
{
	memset(limits, 0, sizeof(limits));
	if (env_limit("PEPPHER_LIMIT_OPENCL_MEM", &limits[PPH_ARCH_OPENCL]) != 0 ||
	    env_limit("PEPPHER_LIMIT_CUDA_MEM", &limits[PPH_ARCH_CUDA]) != 0)
		return -EINVAL;
	return 0;
}

const char *pph__mem_limits_error(void)
{
	return limit_error;
}

size_t pph__mem_limit(unsigned node)
{
	return mem[node].limit;
}

void pph__mem_node_init(unsigned node)
{
	pthread_mutex_init(&mem[node].lock, NULL);
	mem[node].limit = limits[pph__rt.nodes[node].arch];
	mem[node].used = 0;
	mem[node].cache = NULL;
	mem[node].cached = 0;
	mem[node].cache_bound = SIZE_MAX; /* until the driver says the device's size */
}

/*
 * The cache of unused buffers (of no live handle) holds at most a quarter
 * of the device's memory, a 64th where that memory is the host's (PoCL's
 * CPU device, an integrated GPU): its buffers are the process's RSS there.
 * Unbounded, raw-pointer calls on arrays of 997 sizes of 4 to 8 MB left
 * 997 buffers on PoCL, which reports 22 GB of "device" memory, and the
 * process grew from 83 MB to 5.9 GB, its live data under 8 MB.  Under
 * PEPPHER_LIMIT_*_MEM the cache also counts in the limit, and is dropped
 * for room as before.  Called by the drivers once the node is added.
 */
void pph__mem_set_device(unsigned node, size_t device_bytes, int host_memory)
{
	if (device_bytes)
		pph__mem_set_cache_bound(node, device_bytes / (host_memory ? 64 : 4));
}

/* Free cached buffers, the least recently freed first, until the cache is
 * within its bound, the most recently freed buffer excepted: the next call
 * of its size (the same array's) still reuses one larger than the bound.
 * Node locked. */
static void trim_cache(unsigned node)
{
	struct mem_node *m = &mem[node];
	struct cached **pc, *c;
	size_t kept;

	if (!m->cache || m->cached <= m->cache_bound)
		return;
	kept = m->cache->bytes;
	for (pc = &m->cache->next; (c = *pc);) {
		if (kept + c->bytes > m->cache_bound) {
			*pc = c->next;
			pph__rt.nodes[node].ops->free(node, c->buf);
			m->used -= c->bytes;
			m->cached -= c->bytes;
			free(c);
		} else {
			kept += c->bytes;
			pc = &c->next;
		}
	}
}

void pph__mem_set_cache_bound(unsigned node, size_t bytes)
{
	pthread_mutex_lock(&mem[node].lock);
	mem[node].cache_bound = bytes;
	trim_cache(node);
	pthread_mutex_unlock(&mem[node].lock);
}

size_t pph__mem_cache_bound(unsigned node)
{
	return mem[node].cache_bound;
}

size_t pph__mem_cached(unsigned node)
{
	size_t bytes;

	pthread_mutex_lock(&mem[node].lock);
	bytes = mem[node].cached;
	pthread_mutex_unlock(&mem[node].lock);
	return bytes;
}

uint64_t pph__mem_tick(void)
{
	return atomic_fetch_add(&clock_, 1) + 1;
}

/* Free every cached buffer of node until used + want fits.  Node locked. */
static void drop_cache(unsigned node, size_t want)
{
	struct mem_node *m = &mem[node];

	while (m->cache && (!want || (m->limit && m->used + want > m->limit))) {
		struct cached *c = m->cache;

		m->cache = c->next;
		pph__rt.nodes[node].ops->free(node, c->buf);
		m->used -= c->bytes;
		m->cached -= c->bytes;
		free(c);
	}
}

/*
 * Evict one replica from node: unpinned, least recently used, its handle
 * not busy.  A buffer of exactly want bytes is handed over in *reuse
 * instead of freed.  Returns 0 when one was evicted.  Node locked.
 */
static int evict_one(unsigned node, size_t want, void **reuse)
{
	struct pph_data *victim = pph__data_lru(node);
	struct pph_replica *r;
	size_t bytes;
	unsigned n;
	int sole = 1;

	if (!victim)
		return -ENOMEM;
	/* pph__data_lru() returned it with its coh_lock held */
	r = pph__device_replica(victim, node); /* allocated: its replicas are made */
	bytes = (size_t)pph__data_size(victim);
	for (n = 0; n < pph__rt.nnodes; n++)
		if (n != node && pph__replica(victim, n)->state != PPH_INVALID)
			sole = 0;
	if (r->state != PPH_INVALID && sole) {
		int rc = pph__rt.nodes[node].ops->to_host(node, victim->layout, &r->iface,
							  &victim->host.iface);

		if (rc) {
			pthread_mutex_unlock(&victim->coh_lock);
			return rc;
		}
		pph__count_transfer(1, bytes);
		victim->host.state = PPH_MODIFIED;
	}
	if (reuse && !*reuse && bytes == want) {
		*reuse = r->iface.vector.ptr;
	} else {
		pph__rt.nodes[node].ops->free(node, r->iface.vector.ptr);
		mem[node].used -= bytes;
	}
	r->allocated = 0;
	r->state = PPH_INVALID;
	atomic_fetch_add(&nevictions, 1);
	pthread_mutex_unlock(&victim->coh_lock);
	return 0;
}

/* Take a cached buffer of exactly bytes; node locked.  0 or -ENOMEM. */
static int take_cached(struct mem_node *m, size_t bytes, void **buf)
{
	struct cached **pc, *c;

	for (pc = &m->cache; *pc; pc = &(*pc)->next)
		if ((*pc)->bytes == bytes) {
			c = *pc;
			*pc = c->next;
			*buf = c->buf;
			m->cached -= bytes;
			free(c);
			atomic_fetch_add(&nreuses, 1);
			return 0;
		}
	return -ENOMEM;
}

int pph__mem_alloc_free_room(unsigned node, size_t bytes, void **buf)
{
	struct mem_node *m = &mem[node];
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = take_cached(m, bytes, buf);
	if (rc && (!m->limit || m->used + bytes <= m->limit)) {
		rc = pph__rt.nodes[node].ops->alloc(node, bytes, buf);
		if (rc == 0) {
			m->used += bytes;
			atomic_fetch_add(&nallocs, 1);
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int pph__mem_alloc(unsigned node, size_t bytes, void **buf)
{
	struct mem_node *m = &mem[node];
	int rc;

	pthread_mutex_lock(&m->lock);
	if (take_cached(m, bytes, buf) == 0) {
		pthread_mutex_unlock(&m->lock);
		return 0;
	}
	if (m->limit && bytes > m->limit) {
		pthread_mutex_unlock(&m->lock);
		return -ENOMEM;
	}
	drop_cache(node, bytes);
	*buf = NULL;
	while (m->limit && m->used + bytes > m->limit && !*buf)
		if (evict_one(node, bytes, buf) != 0)
			break;
	if (*buf) { /* an evicted replica's buffer, still counted in used */
		atomic_fetch_add(&nreuses, 1);
		pthread_mutex_unlock(&m->lock);
		return 0;
	}
	if (m->limit && m->used + bytes > m->limit) {
		pthread_mutex_unlock(&m->lock);
		return -ENOMEM;
	}
	/* the device itself may run out before the limit: make room, retry */
	while ((rc = pph__rt.nodes[node].ops->alloc(node, bytes, buf)) == -ENOMEM) {
		drop_cache(node, 0);
		if (evict_one(node, 0, NULL) != 0)
			break;
	}
	if (rc == 0) {
		m->used += bytes;
		atomic_fetch_add(&nallocs, 1);
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

void pph__mem_free(unsigned node, size_t bytes, void *buf)
{
	struct mem_node *m = &mem[node];
	struct cached *c = malloc(sizeof(*c));

	pthread_mutex_lock(&m->lock);
	if (c) {
		c->bytes = bytes;
		c->buf = buf;
		c->next = m->cache;
		m->cache = c;
		m->cached += bytes;
		trim_cache(node);
	} else {
		pph__rt.nodes[node].ops->free(node, buf);
		m->used -= bytes;
	}
	pthread_mutex_unlock(&m->lock);
}

void pph__mem_node_release(unsigned node)
{
	pthread_mutex_lock(&mem[node].lock);
	drop_cache(node, 0);
	pthread_mutex_unlock(&mem[node].lock);
	pthread_mutex_destroy(&mem[node].lock);
}

void pph__mem_stats(struct pph_transfer_stats *s)
{
	s->allocations = atomic_load(&nallocs);
	s->reuses = atomic_load(&nreuses);
	s->evictions = atomic_load(&nevictions);
}

void pph__mem_stats_reset(void)
{
	atomic_store(&nallocs, 0);
	atomic_store(&nreuses, 0);
	atomic_store(&nevictions, 0);
}
