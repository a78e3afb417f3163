/*
 * The transfer-time model dmda uses: per device node and direction, a
 * latency and a bandwidth, measured once per host (two copy sizes, the
 * best of a few runs each) and stored next to the performance models as
 * PEPPHER_HOME/perfmodels/HOST/transfers:
 *
 *     peppher-transfers 1
 *     link ARCH INDEX LAT_TO_DEVICE_US BYTES_PER_US_TO_DEVICE LAT_TO_HOST_US BYTES_PER_US_TO_HOST
 *
 * INDEX counts the nodes of one architecture in the order the drivers
 * found them.  PEPPHER_CALIBRATE=2 measures again.
 *
 * A program's copies are slower than the calibration's: on an H100, lud's
 * 2.3 MB matrix took 330-440 us each way where the link's 8 MB copy of a
 * buffer copied just before predicted 230, and dmda sent it to the GPU and
 * back each step for a kernel that saved 600 us on the CPU's 950.  So each
 * node's copies home (waited for, hence timed; a copy to the device is
 * only enqueued) teach it how much slower the copies' bandwidth part is
 * (pph__transfer_observed), for both directions, kept as
 *
 *     slowdown ARCH INDEX FACTOR
 *
 * and written at pph_shutdown.  The latency too: on an H200 the ODE
 * solver's 64 KiB copies home took 33-35 us where the link predicted 17,
 * their bandwidth time a few us of it, and dmda ran half the solver's
 * copies on a CPU worker between two GPU tasks.  So a copy home whose
 * bandwidth time is under the link's latency teaches how much longer the
 * program's latency is (both directions), a median over the last copies:
 * their times are noisy (PoCL's 64-180 KiB copies here: 22 to 200 us for
 * a latency of 26), kept as
 *
 *     latency ARCH INDEX FACTOR
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "perfmodel.h"

#define SMALL (4u << 10)
#define LARGE (8u << 20)
/* a copy home teaches the slowdown from this size on, and where the
 * link's bandwidth time is the latency's at least: below, its time is
 * mostly the latency, and noise (PoCL's copies of 64-180 KiB here, 26 us
 * of latency and 4 of bandwidth: 22 to 200 us) */
#define LEARN_MIN (64u << 10)
#define MIN_SLOWDOWN 0.25
#define MAX_SLOWDOWN 16
/* the slowdown is a mean of the copies seen, the stored factor counting
 * as PRIOR of them, then a moving mean over the last WINDOW */
#define PRIOR 4
#define WINDOW 32
/* the latency's factor is the median of the last LAT_WINDOW copies that
 * taught it, a stored factor counting as PRIOR of them */
#define LAT_WINDOW 31

struct link {
	double latency_us[2];	/* [0] to the device, [1] to the host */
	double bytes_per_us[2];
};

/* the links estimates use, and those measured or stored (what is
 * written: pph__transfer_model_set changes the first only) */
static struct link links[PPH_MAX_NODES], stored[PPH_MAX_NODES];

/* Per node: the copies' slowdown over the link's bandwidth and their
 * latency's over the link's (read racily by estimates), how many copies
 * taught the first (PRIOR for a stored factor), the last factors the
 * latency-bound copies showed (a ring of lat_seen, next at lat_next),
 * whether either was learned since stored, whether the link was set by
 * hand (then what it learns is not stored) and whether it learns. */
static struct {
	_Atomic double factor, lat_factor;
	unsigned seen;
	double lat_ring[LAT_WINDOW];
	unsigned lat_seen, lat_next;
	int dirty, by_hand;
	_Atomic int fixed;
} slow[PPH_MAX_NODES];
static pthread_mutex_t slow_lock = PTHREAD_MUTEX_INITIALIZER;

/* The index of node among the nodes of its architecture. */
static unsigned arch_index(unsigned node)
{
	unsigned n, k = 0;

	for (n = 1; n < node; n++)
		k += pph__rt.nodes[n].arch == pph__rt.nodes[node].arch;
	return k;
}

static double copy_us(unsigned node, int to_host, union pph_iface *host, union pph_iface *dev,
		      int runs)
{
	const struct pph_node_ops *ops = pph__rt.nodes[node].ops;
	double best = 1e30;
	int i;

	for (i = 0; i < runs; i++) {
		double t0 = pph__now_us(), t;
		int rc = to_host ? ops->to_host(node, PPH_LAYOUT_VECTOR, dev, host) :
				   ops->to_device(node, PPH_LAYOUT_VECTOR, host, dev);

		ops->sync(node);
		t = pph__now_us() - t0;
		if (rc)
			return -1;
		if (t < best)
			best = t;
	}
	return best;
}

static int measure(unsigned node, struct link *l)
{
	const struct pph_node_ops *ops = pph__rt.nodes[node].ops;
	union pph_iface host, dev;
	void *hbuf = calloc(1, LARGE), *dbuf = NULL;
	int dir, rc = -ENOMEM;

	if (hbuf && ops->alloc(node, LARGE, &dbuf) == 0) {
		/* a program's data, not calloc's untouched pages: those all map
		 * the one zero page, which a copy to the device reads from the
		 * cache, faster than any array */
		memset(hbuf, 0x5a, LARGE);
		rc = 0;
		for (dir = 0; dir < 2 && rc == 0; dir++) {
			double t_small, t_large;

			host.vector = (struct pph_vector_iface){ hbuf, SMALL, 1 };
			dev.vector = (struct pph_vector_iface){ dbuf, SMALL, 1 };
			t_small = copy_us(node, dir, &host, &dev, 8);
			host.vector.n = dev.vector.n = LARGE;
			t_large = copy_us(node, dir, &host, &dev, 3);
			if (t_small < 0 || t_large < 0) {
				rc = -EIO;
				break;
			}
			l->bytes_per_us[dir] = (double)(LARGE - SMALL) /
					       (t_large > t_small ? t_large - t_small : 1e-3);
			l->latency_us[dir] = t_small - SMALL / l->bytes_per_us[dir];
			if (l->latency_us[dir] < 0)
				l->latency_us[dir] = 0;
		}
		ops->free(node, dbuf);
	}
	free(hbuf);
	return rc;
}

static char *file_path(void)
{
	char *dir = pph__perfmodel_dir(), *path = NULL;

	if (dir && asprintf(&path, "%s/transfers", dir) < 0)
		path = NULL;
	free(dir);
	return path;
}

/* A stored link is trusted only with values a copy can have: a NaN or an
 * infinite time would make every estimate, and so every placement, NaN. */
static int sane_link(const struct link *l)
{
	int dir;

	for (dir = 0; dir < 2; dir++)
		if (!(l->latency_us[dir] >= 0 && l->latency_us[dir] < 1e9) ||
		    !(l->bytes_per_us[dir] > 0 && isfinite(l->bytes_per_us[dir])))
			return 0;
	return 1;
}

/* A node's slowdown and latency learned again from none. */
static void forget_slowdown(unsigned node)
{
	atomic_store_explicit(&slow[node].factor, 1.0, memory_order_relaxed);
	atomic_store_explicit(&slow[node].lat_factor, 1.0, memory_order_relaxed);
	slow[node].seen = slow[node].lat_seen = slow[node].lat_next = 0;
}

/* The median of the node's latency factors seen (slow_lock held). */
static double latency_median(unsigned node)
{
	double v[LAT_WINDOW], x;
	unsigned n = slow[node].lat_seen, i, j;

	for (i = 0; i < n; i++) { /* insertion sort: 31 values at most */
		x = slow[node].lat_ring[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One latency factor seen on node (slow_lock held). */
static void latency_seen(unsigned node, double r)
{
	slow[node].lat_ring[slow[node].lat_next] = r;
	slow[node].lat_next = (slow[node].lat_next + 1) % LAT_WINDOW;
	if (slow[node].lat_seen < LAT_WINDOW)
		slow[node].lat_seen++;
	atomic_store_explicit(&slow[node].lat_factor, latency_median(node),
			      memory_order_relaxed);
}

/* The node of the stored link ARCH INDEX, or 0: none here. */
static unsigned node_of(const char *arch, unsigned index)
{
	unsigned n;

	for (n = 1; n < pph__rt.nnodes; n++)
		if (strcmp(arch, pph_arch_name(pph__rt.nodes[n].arch)) == 0 &&
		    arch_index(n) == index)
			return n;
	return 0;
}

/* A slowdown a program's copies can have: neither NaN nor absurd. */
static int sane_factor(double f)
{
	return f >= MIN_SLOWDOWN && f <= MAX_SLOWDOWN;
}

/* Read the stored links and slowdowns; returns a bit per link found. */
static unsigned long load(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[256], arch[16];
	unsigned long found = 0;
	unsigned index, n;
	struct link l;

	if (!fp)
		return 0;
	if (!fgets(line, sizeof(line), fp) || strcmp(line, "peppher-transfers 1\n") != 0) {
		fprintf(stderr, "peppher: warning: %s: not a transfer model; measuring again\n", path);
		fclose(fp);
		return 0;
	}
	while (fgets(line, sizeof(line), fp)) {
		double factor;

		if (sscanf(line, "link %15s %u %lf %lf %lf %lf", arch, &index, &l.latency_us[0],
			   &l.bytes_per_us[0], &l.latency_us[1], &l.bytes_per_us[1]) == 6 &&
		    sane_link(&l) && (n = node_of(arch, index)) != 0) {
			links[n] = l;
			found |= 1ul << n;
		} else if (sscanf(line, "slowdown %15s %u %lf", arch, &index, &factor) == 3 &&
			   sane_factor(factor) && (n = node_of(arch, index)) != 0) {
			slow[n].factor = factor;
			slow[n].seen = PRIOR;
		} else if (sscanf(line, "latency %15s %u %lf", arch, &index, &factor) == 3 &&
			   sane_factor(factor) && (n = node_of(arch, index)) != 0) {
			slow[n].lat_seen = slow[n].lat_next = 0;
			for (int i = 0; i < PRIOR; i++)
				latency_seen(n, factor);
		}
	}
	fclose(fp);
	/* a slowdown over a link measured again is not kept */
	for (n = 1; n < pph__rt.nnodes; n++)
		if (!(found >> n & 1ul))
			forget_slowdown(n);
	return found;
}

static void write_links(FILE *fp, const void *unused)
{
	unsigned n;

	(void)unused;
	fprintf(fp, "peppher-transfers 1\n");
	for (n = 1; n < pph__rt.nnodes; n++) {
		fprintf(fp, "link %s %u %.3f %.3f %.3f %.3f\n",
			pph_arch_name(pph__rt.nodes[n].arch), arch_index(n),
			stored[n].latency_us[0], stored[n].bytes_per_us[0],
			stored[n].latency_us[1], stored[n].bytes_per_us[1]);
		if (slow[n].by_hand)
			continue;
		if (slow[n].seen)
			fprintf(fp, "slowdown %s %u %.4f\n", pph_arch_name(pph__rt.nodes[n].arch),
				arch_index(n), (double)slow[n].factor);
		if (slow[n].lat_seen)
			fprintf(fp, "latency %s %u %.4f\n", pph_arch_name(pph__rt.nodes[n].arch),
				arch_index(n), (double)slow[n].lat_factor);
	}
}

/* Said as the performance models' writes are (a full disk kept it
 * silent), once a process: it is written at each pph_init that measured. */
static void store(const char *path)
{
	static atomic_int warned;
	int rc = pph__file_replace(path, write_links, NULL);

	if (rc != 0 && !atomic_exchange(&warned, 1))
		fprintf(stderr, "peppher: warning: cannot write %s: %s\n", path, strerror(-rc));
}

void pph__transfer_model_init(void)
{
	const char *cal = getenv("PEPPHER_CALIBRATE");
	char *path = file_path();
	unsigned long found = 0;
	unsigned n;
	int measured = 0;

	for (n = 1; n < pph__rt.nnodes; n++) {
		forget_slowdown(n);
		slow[n].dirty = slow[n].by_hand = slow[n].fixed = 0;
	}
	if (path && !(cal && strcmp(cal, "2") == 0))
		found = load(path);
	for (n = 1; n < pph__rt.nnodes; n++) {
		if (found >> n & 1ul)
			continue;
		/* until measured: a PCIe-like link */
		links[n] = (struct link){ { 10, 10 }, { 5000, 5000 } };
		if (measure(n, &links[n]) == 0)
			measured = 1;
	}
	memcpy(stored, links, sizeof(stored));
	if (measured && path)
		store(path);
	free(path);
}

double pph__transfer_time(unsigned node, int to_host, uint64_t bytes)
{
	const struct link *l = &links[node];
	double factor = atomic_load_explicit(&slow[node].factor, memory_order_relaxed);
	double lat = atomic_load_explicit(&slow[node].lat_factor, memory_order_relaxed);

	return l->latency_us[to_host] * lat + (double)bytes / l->bytes_per_us[to_host] * factor;
}

void pph__transfer_observed(unsigned node, uint64_t bytes, double us)
{
	const struct link *l = &links[node];
	double f = atomic_load_explicit(&slow[node].factor, memory_order_relaxed), r;
	double lat = l->latency_us[1] * atomic_load_explicit(&slow[node].lat_factor,
							     memory_order_relaxed);
	double bandwidth_us = (double)bytes / l->bytes_per_us[1];

	if (atomic_load_explicit(&slow[node].fixed, memory_order_relaxed))
		return;
	if (bandwidth_us < l->latency_us[1]) {
		/* latency-bound: what the bandwidth does not explain is the
		 * latency (a link measured without one teaches nothing) */
		if (l->latency_us[1] <= 0)
			return;
		r = fmin(fmax((us - bandwidth_us * f) / l->latency_us[1], MIN_SLOWDOWN),
			 MAX_SLOWDOWN);
		pthread_mutex_lock(&slow_lock);
		latency_seen(node, r);
		slow[node].dirty = 1;
		pthread_mutex_unlock(&slow_lock);
		return;
	}
	if (bytes < LEARN_MIN)
		return;
	/* a copy into pages not touched yet (page faults: 100 times the
	 * time, here) moves it 4 times its value at most */
	r = fmin(fmax((us - lat) / bandwidth_us, fmax(f / 4, MIN_SLOWDOWN)),
		 fmin(f * 4, MAX_SLOWDOWN));
	pthread_mutex_lock(&slow_lock);
	if (slow[node].seen < WINDOW)
		slow[node].seen++;
	atomic_store_explicit(&slow[node].factor,
			      slow[node].factor + (r - slow[node].factor) / slow[node].seen,
			      memory_order_relaxed);
	slow[node].dirty = 1;
	pthread_mutex_unlock(&slow_lock);
}

double pph__transfer_slowdown(unsigned node)
{
	return atomic_load_explicit(&slow[node].factor, memory_order_relaxed);
}

double pph__transfer_latency_factor(unsigned node)
{
	return atomic_load_explicit(&slow[node].lat_factor, memory_order_relaxed);
}

void pph__transfer_model_shutdown(void)
{
	char *path;
	unsigned n;
	int dirty = 0;

	for (n = 1; n < pph__rt.nnodes; n++)
		dirty |= slow[n].dirty, slow[n].dirty = 0;
	if (dirty && (path = file_path())) {
		store(path);
		free(path);
	}
}

void pph__transfer_model_get(unsigned node, double latency_us[2], double bytes_per_us[2])
{
	memcpy(latency_us, links[node].latency_us, sizeof(links[node].latency_us));
	memcpy(bytes_per_us, links[node].bytes_per_us, sizeof(links[node].bytes_per_us));
}

void pph__transfer_model_set(unsigned node, const double latency_us[2],
			     const double bytes_per_us[2], int learns)
{
	memcpy(links[node].latency_us, latency_us, sizeof(links[node].latency_us));
	memcpy(links[node].bytes_per_us, bytes_per_us, sizeof(links[node].bytes_per_us));
	forget_slowdown(node); /* learned again over this link */
	slow[node].by_hand = 1;
	atomic_store_explicit(&slow[node].fixed, !learns, memory_order_relaxed);
}
