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
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "perfmodel.h"

#define SMALL (4u << 10)
#define LARGE (8u << 20)

struct link {
	double latency_us[2];	/* [0] to the device, [1] to the host */
	double bytes_per_us[2];
};

static struct link links[PPH_MAX_NODES];

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

/* Read the stored links; returns a bit per node found. */
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
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "link %15s %u %lf %lf %lf %lf", arch, &index, &l.latency_us[0],
			   &l.bytes_per_us[0], &l.latency_us[1], &l.bytes_per_us[1]) == 6 &&
		    sane_link(&l))
			for (n = 1; n < pph__rt.nnodes; n++)
				if (strcmp(arch, pph_arch_name(pph__rt.nodes[n].arch)) == 0 &&
				    arch_index(n) == index) {
					links[n] = l;
					found |= 1ul << n;
				}
	fclose(fp);
	return found;
}

static void write_links(FILE *fp, const void *unused)
{
	unsigned n;

	(void)unused;
	fprintf(fp, "peppher-transfers 1\n");
	for (n = 1; n < pph__rt.nnodes; n++)
		fprintf(fp, "link %s %u %.3f %.3f %.3f %.3f\n",
			pph_arch_name(pph__rt.nodes[n].arch), arch_index(n),
			links[n].latency_us[0], links[n].bytes_per_us[0],
			links[n].latency_us[1], links[n].bytes_per_us[1]);
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
	if (measured && path)
		store(path);
	free(path);
}

double pph__transfer_time(unsigned node, int to_host, uint64_t bytes)
{
	const struct link *l = &links[node];

	return l->latency_us[to_host] + (double)bytes / l->bytes_per_us[to_host];
}

void pph__transfer_model_get(unsigned node, double latency_us[2], double bytes_per_us[2])
{
	memcpy(latency_us, links[node].latency_us, sizeof(links[node].latency_us));
	memcpy(bytes_per_us, links[node].bytes_per_us, sizeof(links[node].bytes_per_us));
}

void pph__transfer_model_set(unsigned node, const double latency_us[2],
			     const double bytes_per_us[2])
{
	memcpy(links[node].latency_us, latency_us, sizeof(links[node].latency_us));
	memcpy(links[node].bytes_per_us, bytes_per_us, sizeof(links[node].bytes_per_us));
}
