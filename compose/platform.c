#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

#include "config.h"
#ifdef PPH_HAVE_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#include "diag.h"
#include "libsyms.h"
#include "platform.h"
#include "util.h"

static void add_fact(struct model *m, const char *name, double value)
{
	struct fact *f = array_push(&m->facts, &m->nfacts, sizeof(*f));

	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->value = value;
}

/* OS devices hwloc reports as coprocessors of one kind ("CUDA", "OpenCL"). */
static int count_coprocs(hwloc_topology_t topo, const char *subtype)
{
	hwloc_obj_t o = NULL;
	int n = 0;

	while ((o = hwloc_get_next_osdev(topo, o)))
		if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC && o->subtype &&
		    strcmp(o->subtype, subtype) == 0)
			n++;
	return n;
}

/*
 * Device counts, found once per process (the machine's devices do not
 * change during a run) and only when a constraint asks: hwloc's I/O
 * discovery starts every OpenCL platform (PoCL compiles its kernels) and
 * tries X11, most of the time and memory of a compose run otherwise.
 */
static struct {
	bool counted;
	int cuda, opencl;
} devices;

#ifdef PPH_HAVE_OPENCL
/*
 * OpenCL devices as the runtime opens them: every device of every
 * platform the ICD loader lists, PoCL's CPU device included (hwloc lists
 * GPUs and accelerators only).  The loader is opened, not linked: compose
 * runs where no ICD is installed.  -1 when it cannot be opened.
 */
static int count_opencl_devices(void)
{
	void *lib = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_LOCAL);
	cl_int (*platform_ids)(cl_uint, cl_platform_id *, cl_uint *);
	cl_int (*device_ids)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
	cl_platform_id platforms[8];
	cl_uint nplatforms = 0, p, ndev;
	void *sym;
	int n = 0;

	if (!lib)
		return -1;
	/* left open: an ICD's exit handlers may outlive a dlclose */
	if (!(sym = dlsym(lib, "clGetPlatformIDs")))
		return -1;
	memcpy(&platform_ids, &sym, sizeof(sym));
	if (!(sym = dlsym(lib, "clGetDeviceIDs")))
		return -1;
	memcpy(&device_ids, &sym, sizeof(sym));
	if (platform_ids(8, platforms, &nplatforms) != CL_SUCCESS)
		return 0;
	for (p = 0; p < nplatforms && p < 8; p++)
		if (device_ids(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev) == CL_SUCCESS)
			n += (int)ndev;
	return n;
}
#endif

static void count_devices(void)
{
	hwloc_topology_t topo;

	devices.counted = true;
	if (hwloc_topology_init(&topo) != 0)
		return;
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	if (hwloc_topology_load(topo) == 0) {
		devices.cuda = count_coprocs(topo, "CUDA");
		devices.opencl = count_coprocs(topo, "OpenCL");
	}
	hwloc_topology_destroy(topo);
#ifdef PPH_HAVE_OPENCL
	{
		int icd = count_opencl_devices();

		if (icd >= 0)
			devices.opencl = icd;
	}
#endif
	diag_verbose(3, "platform fact num_cuda_devices = %d (hwloc I/O discovery)", devices.cuda);
	diag_verbose(3, "platform fact num_opencl_devices = %d", devices.opencl);
}

static bool device_fact(const char *name, double *value)
{
	bool cuda = strcmp(name, "num_cuda_devices") == 0;

	if (!cuda && strcmp(name, "num_opencl_devices") != 0)
		return false;
	if (!devices.counted)
		count_devices();
	*value = cuda ? devices.cuda : devices.opencl;
	return true;
}

/* Cores and PUs without hwloc's device plugins: not even loaded for them. */
static void count_cores(int *cores, int *pus)
{
	static const char *const io[] = {
		"pci", "linux:io", "opencl", "gl", "cuda", "nvml", "rsmi", "levelzero",
	};
	hwloc_topology_t topo;
	size_t i;

	if (hwloc_topology_init(&topo) != 0)
		return;
	/* a component this hwloc lacks cannot be blacklisted: nothing to do */
	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++)
		hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, io[i]);
	if (hwloc_topology_load(topo) == 0) {
		*cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
		*pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	}
	hwloc_topology_destroy(topo);
}

void platform_detect(struct model *m, unsigned build_platforms)
{
	static const char *const has[] = { "has_cpu", "has_openmp", "has_cuda", "has_opencl" };
	int cores = 1, pus = 1;
	unsigned i;

	count_cores(&cores, &pus);
	add_fact(m, "num_cores", cores > 0 ? cores : 1);
	add_fact(m, "num_pus", pus > 0 ? pus : 1);
	for (i = 0; i < 4; i++)
		add_fact(m, has[i], build_platforms >> i & 1u);
}

/* Where a linker finds libraries here: $LIBRARY_PATH, the system's, and the
 * CUDA toolkit's (for cublas, cusparse, ...). */
static bool library_installed(const char *lib)
{
	char *path = library_find(lib, NULL, 0);

	free(path);
	return path != NULL;
}

bool platform_fact(const struct model *m, const char *name, double *value)
{
	size_t i;

	for (i = m->nfacts; i-- > 0;)
		if (strcmp(m->facts[i].name, name) == 0) {
			*value = m->facts[i].value;
			return true;
		}
	if (device_fact(name, value))
		return true;
	if (strncmp(name, "has_lib_", 8) == 0) {
		*value = library_installed(name + 8);
		return true;
	}
	if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
		*value = name[0] == 't';
		return true;
	}
	return false;
}
