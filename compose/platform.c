#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

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

void platform_detect(struct model *m, unsigned build_platforms)
{
	static const char *const has[] = { "has_cpu", "has_openmp", "has_cuda", "has_opencl" };
	hwloc_topology_t topo;
	int cores = 1, pus = 1, cuda = 0, opencl = 0;
	unsigned i;

	if (hwloc_topology_init(&topo) == 0) {
		hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
		if (hwloc_topology_load(topo) == 0) {
			cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
			pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
			cuda = count_coprocs(topo, "CUDA");
			opencl = count_coprocs(topo, "OpenCL");
		}
		hwloc_topology_destroy(topo);
	}
	add_fact(m, "num_cores", cores > 0 ? cores : 1);
	add_fact(m, "num_pus", pus > 0 ? pus : 1);
	add_fact(m, "num_cuda_devices", cuda);
	add_fact(m, "num_opencl_devices", opencl);
	for (i = 0; i < 4; i++)
		add_fact(m, has[i], build_platforms >> i & 1u);
}

/* Debian's multiarch library folder */
#if defined(__x86_64__)
#define PPH_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define PPH_MULTIARCH "aarch64-linux-gnu"
#elif defined(__powerpc64__)
#define PPH_MULTIARCH "powerpc64le-linux-gnu"
#else
#define PPH_MULTIARCH "lib"
#endif

static bool library_in(const char *dir, const char *lib)
{
	char *so = xasprintf("%s/lib%s.so", dir, lib), *a = xasprintf("%s/lib%s.a", dir, lib);
	bool found = access(so, F_OK) == 0 || access(a, F_OK) == 0;

	free(so);
	free(a);
	return found;
}

/* Folders where a linker finds libraries here: $LIBRARY_PATH, the
 * system's, and the CUDA toolkit's (for cublas, cusparse, ...). */
static bool library_installed(const char *lib)
{
	static const char *const fixed[] = {
		"/usr/local/lib", "/usr/lib", "/lib", "/usr/local/cuda/lib64",
		"/usr/lib/" PPH_MULTIARCH,
	};
	const char *env = getenv("LIBRARY_PATH");
	char *dirs = xstrdup(env ? env : ""), *save = NULL, *dir;
	bool found = false;
	size_t i;

	for (dir = strtok_r(dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save))
		found = library_in(dir, lib);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && !found; i++)
		found = library_in(fixed[i], lib);
	free(dirs);
	return found;
}

bool platform_fact(const struct model *m, const char *name, double *value)
{
	size_t i;

	for (i = m->nfacts; i-- > 0;)
		if (strcmp(m->facts[i].name, name) == 0) {
			*value = m->facts[i].value;
			return true;
		}
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
