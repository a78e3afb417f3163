/*
 * Transfers: for each data-movement scenario, the transfers and bytes
 * PEPPHER-C makes, against the minimum possible and against the pattern of
 * raw-pointer calls that register and unregister the data around every
 * call (what a runtime without persistent handles must do).  Every call
 * is forced onto the OpenCL device (PoCL here), so data really moves.
 * Counts, not times: the output is the same on every run.
 */
#include <stdio.h>
#include <stdlib.h>

#include <peppher/opencl.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define N (256 * 1024)

static const char *const src =
	"__kernel void fill(__global int *v, int x) { size_t i = get_global_id(0); v[i] = x + (int)i; }\n"
	"__kernel void add(__global int *v, int x) { v[get_global_id(0)] += x; }\n"
	"__kernel void sum(__global const int *v, uint n, __global int *out)\n"
	"{ if (get_global_id(0) == 0) { int s = 0; for (uint i = 0; i < n; i++) s += v[i]; out[0] = s; } }\n";

static void launch(const char *name, void *b[], int x)
{
	cl_kernel k = pph_opencl_kernel_source(src, name);
	cl_mem m = PPH_OPENCL_MEM(b[0]);
	size_t global = PPH_VECTOR_N(b[0]);

	if (!k)
		return;
	clSetKernelArg(k, 0, sizeof(m), &m);
	clSetKernelArg(k, 1, sizeof(x), &x);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, NULL, 0, NULL, NULL);
}

static void fill_ocl(void *b[], void *arg) { launch("fill", b, *(int *)arg); }
static void add_ocl(void *b[], void *arg) { launch("add", b, *(int *)arg); }

static void sum_ocl(void *b[], void *arg)
{
	cl_kernel k = pph_opencl_kernel_source(src, "sum");
	cl_mem m = PPH_OPENCL_MEM(b[0]), out = PPH_OPENCL_MEM(b[1]);
	cl_uint n = (cl_uint)PPH_VECTOR_N(b[0]);
	size_t one = 1;

	(void)arg;
	if (!k)
		return;
	clSetKernelArg(k, 0, sizeof(m), &m);
	clSetKernelArg(k, 1, sizeof(n), &n);
	clSetKernelArg(k, 2, sizeof(out), &out);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &one, NULL, 0, NULL, NULL);
}

static const struct pph_impl fill_i[] = { { PPH_ARCH_OPENCL, fill_ocl, "fill", 0 } };
static const struct pph_impl add_i[] = { { PPH_ARCH_OPENCL, add_ocl, "add", 0 } };
static const struct pph_impl sum_i[] = { { PPH_ARCH_OPENCL, sum_ocl, "sum", 0 } };
static const struct pph_codelet fill_cl = { "bench_fill", 1, fill_i, PPH_MODEL_DEFAULT };
static const struct pph_codelet add_cl = { "bench_add", 1, add_i, PPH_MODEL_DEFAULT };
static const struct pph_codelet sum_cl = { "bench_sum", 1, sum_i, PPH_MODEL_DEFAULT };

static int v[N], out1, out2;
static pph_data_handle hv, ho1, ho2;
static int per_call; /* register and unregister around every call */

static void reg(void)
{
	pph_vector_register(&hv, v, N, sizeof(int));
	pph_vector_register(&ho1, &out1, 1, sizeof(int));
	pph_vector_register(&ho2, &out2, 1, sizeof(int));
}

static void unreg(void)
{
	pph_data_unregister(hv);
	pph_data_unregister(ho1);
	pph_data_unregister(ho2);
}

/* One component call: f on the device, as a raw-pointer call would be
 * with per_call, or on the kept handles. */
static void comp(const struct pph_codelet *cl, enum pph_access mode, pph_data_handle *out, int x)
{
	pph_data_handle h[2];
	enum pph_access m[2] = { mode, PPH_W };

	if (per_call)
		reg();
	h[0] = hv;
	h[1] = out ? *out : NULL;
	pph_call_sync(cl, PPH_ALL_IMPLS, out ? 2 : 1, h, m, &x, sizeof(x));
	if (per_call)
		unreg();
}

/* The host touches v between calls. */
static void host(enum pph_access mode)
{
	if (!per_call)
		pph_data_acquire(hv, mode);
	v[0] += 0;
}

static void fig3(void)
{
	comp(&fill_cl, PPH_W, NULL, 1);
	host(PPH_R);
	comp(&add_cl, PPH_RW, NULL, 2);
	comp(&sum_cl, PPH_R, &ho1, 0);
	comp(&sum_cl, PPH_R, &ho2, 0);
	host(PPH_RW);
}

static void chain(void)
{
	int i;

	comp(&fill_cl, PPH_W, NULL, 0);
	for (i = 0; i < 10; i++)
		comp(&add_cl, PPH_RW, NULL, 1);
	host(PPH_R);
}

static void reads(void)
{
	int i;

	for (i = 0; i < 8; i++)
		comp(&sum_cl, PPH_R, &ho1, 0);
}

static void host_writes(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		host(PPH_RW);
		comp(&add_cl, PPH_RW, NULL, 1);
	}
	host(PPH_R);
}

struct scenario {
	const char *name;
	void (*run)(void);
	unsigned min; /* the fewest transfers of v any runtime needs */
};

static void measure(const struct scenario *sc, int pattern, struct pph_transfer_stats *s)
{
	per_call = pattern;
	if (!per_call)
		reg();
	pph_transfer_stats_reset();
	sc->run();
	if (!per_call)
		unreg();
	pph_transfer_stats_get(s);
}

int main(void)
{
	static const struct scenario scenarios[] = {
		{ "Fig. 3 (W, host R, RW, R, R, host W)", fig3, 2 },
		{ "fill + 10 readwrite calls + host read", chain, 1 },
		{ "8 reads of host data", reads, 1 },
		{ "4 x (host write, device readwrite)", host_writes, 8 },
	};
	size_t i;

	setenv("PEPPHER_NCPU", "1", 0);
	if (pph_init() != 0 || pph_worker_count_arch(PPH_ARCH_OPENCL) == 0) {
		printf("transfers: no OpenCL device, nothing to measure\n");
		pph_shutdown();
		return 0;
	}
	printf("transfers of a %d KiB vector (results' 4-byte copies left out), every call on the OpenCL device\n",
	       (int)(N * sizeof(int) / 1024));
	printf("%-40s %4s %12s %14s %8s  %s\n", "scenario", "min", "PEPPHER-C",
	       "per-call reg.", "ratio", "per-call device buffers");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		struct pph_transfer_stats kept, each;
		unsigned long nk, ne;

		measure(&scenarios[i], 0, &kept);
		measure(&scenarios[i], 1, &each);
		/* count the vector's transfers: the 4-byte results are extra */
		nk = (unsigned long)((kept.bytes_to_device + kept.bytes_to_host) / (N * sizeof(int)));
		ne = (unsigned long)((each.bytes_to_device + each.bytes_to_host) / (N * sizeof(int)));
		printf("%-40s %4u %4lu (%4.1fx) %5lu (%4.1fx) %7.2fx  %lu allocated, %lu reused\n",
		       scenarios[i].name, scenarios[i].min, nk, (double)nk / scenarios[i].min, ne,
		       (double)ne / scenarios[i].min, nk ? (double)ne / (double)nk : 0.0,
		       each.allocations, each.reuses);
	}
	pph_shutdown();
	return 0;
}
