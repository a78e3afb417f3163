/*
 * The OpenCL driver: one memory node and one worker per OpenCL device
 * (PEPPHER_NOPENCL limits the count; 0 turns OpenCL off), buffers and copies
 * on the device's queue, and programs built once per device per process.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <peppher/opencl.h>

#include "internal.h"

struct kernel_entry {
	char *key; /* path or source, then '\n', then the kernel name */
	cl_program program; /* NULL with kernel: it failed, and was reported */
	cl_kernel kernel;
	struct kernel_entry *next;
};

struct ocl_device {
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	struct kernel_entry *kernels; /* only its worker thread touches it */
};

static struct ocl_device devices[PPH_MAX_NODES];
static unsigned ndevices;
static PPH_TLS struct ocl_device *current;

static int check(cl_int err, const char *what)
{
	if (err == CL_SUCCESS)
		return 0;
	fprintf(stderr, "peppher: OpenCL: %s failed (error %d)\n", what, (int)err);
	return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ?
		       -ENOMEM : -EIO;
}

static struct ocl_device *dev_of(unsigned node)
{
	return pph__rt.nodes[node].driver;
}

static int ocl_alloc(unsigned node, size_t bytes, void **buf)
{
	cl_int err;
	cl_mem mem = clCreateBuffer(dev_of(node)->context, CL_MEM_READ_WRITE,
				    bytes ? bytes : 1, NULL, &err);

	*buf = mem;
	return check(err, "clCreateBuffer");
}

static void ocl_free(unsigned node, void *buf)
{
	(void)node;
	clReleaseMemObject((cl_mem)buf);
}

/*
 * Matrices whose host rows are ld apart go through the rectangle copies.
 * Writes to the device do not block: the worker's in-order queue runs the
 * kernel after them, and the host memory stays put until the task has
 * finished (its dependencies say so).  Reads block: the host wants them.
 */
static int copy(unsigned node, enum pph_layout layout, const union pph_iface *host,
		const union pph_iface *dev, int to_device)
{
	cl_command_queue q = dev_of(node)->queue;
	cl_mem mem = (cl_mem)dev->vector.ptr;
	size_t bytes;
	cl_int err;

	if (layout == PPH_LAYOUT_MATRIX && host->matrix.ld != host->matrix.cols) {
		const struct pph_matrix_iface *m = &host->matrix;
		size_t origin[3] = { 0, 0, 0 };
		size_t region[3] = { m->cols * m->elemsize, m->rows, 1 };

		if (!m->rows || !m->cols)
			return 0;
		err = to_device ?
			clEnqueueWriteBufferRect(q, mem, CL_FALSE, origin, origin, region,
						 region[0], 0, m->ld * m->elemsize, 0,
						 m->ptr, 0, NULL, NULL) :
			clEnqueueReadBufferRect(q, mem, CL_TRUE, origin, origin, region,
						region[0], 0, m->ld * m->elemsize, 0,
						m->ptr, 0, NULL, NULL);
		return check(err, to_device ? "clEnqueueWriteBufferRect" :
					      "clEnqueueReadBufferRect");
	}
	bytes = layout == PPH_LAYOUT_VARIABLE ? host->variable.size :
		layout == PPH_LAYOUT_VECTOR ? host->vector.n * host->vector.elemsize :
		host->matrix.rows * host->matrix.cols * host->matrix.elemsize;
	if (!bytes)
		return 0;
	err = to_device ?
		clEnqueueWriteBuffer(q, mem, CL_FALSE, 0, bytes, host->vector.ptr, 0, NULL, NULL) :
		clEnqueueReadBuffer(q, mem, CL_TRUE, 0, bytes, host->vector.ptr, 0, NULL, NULL);
	return check(err, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
}

static int ocl_to_device(unsigned node, enum pph_layout layout,
			 const union pph_iface *host, union pph_iface *dev)
{
	return copy(node, layout, host, dev, 1);
}

static int ocl_to_host(unsigned node, enum pph_layout layout,
		       const union pph_iface *dev, union pph_iface *host)
{
	return copy(node, layout, host, dev, 0);
}

static int ocl_sync(unsigned node)
{
	return check(clFinish(dev_of(node)->queue), "clFinish after a variant");
}

static void ocl_wait_copies(unsigned node)
{
	(void)clFinish(dev_of(node)->queue);
}

static const struct pph_node_ops ocl_ops = {
	ocl_alloc, ocl_free, ocl_to_device, ocl_to_host, ocl_sync, ocl_wait_copies,
};

/* How many devices to open: max (PEPPHER_NOPENCL or the program's pph_conf,
 * read by pph_init), -1 for all. */
static unsigned max_devices(int max)
{
	return max >= 0 ? (unsigned)max : PPH_MAX_NODES;
}

/* Tell memory.c the device's size, and whether it is the host's memory
 * (a CPU device, PoCL's; an integrated GPU): its cache bound. */
static void mem_of_device(int node, cl_device_id id)
{
	cl_ulong bytes = 0;
	cl_bool unified = CL_FALSE;
	cl_device_type type = 0;

	if (clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(bytes), &bytes, NULL) != CL_SUCCESS)
		return;
	/* deprecated in OpenCL 2.0, still answered; an error leaves it false */
	(void)clGetDeviceInfo(id, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(unified), &unified, NULL);
	(void)clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	pph__mem_set_device((unsigned)node, bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes,
			    unified || (type & CL_DEVICE_TYPE_CPU));
}

static int open_device(cl_device_id id)
{
	struct ocl_device *d = &devices[ndevices];
	cl_int err;
	int node;

	d->device = id;
	d->context = clCreateContext(NULL, 1, &id, NULL, NULL, &err);
	if (check(err, "clCreateContext"))
		return -1;
	d->queue = clCreateCommandQueue(d->context, id, 0, &err);
	if (check(err, "clCreateCommandQueue")) {
		clReleaseContext(d->context);
		return -1;
	}
	node = pph__node_add(PPH_ARCH_OPENCL, &ocl_ops, d);
	if (node < 0) {
		clReleaseCommandQueue(d->queue);
		clReleaseContext(d->context);
		return -1;
	}
	d->kernels = NULL;
	ndevices++;
	mem_of_device(node, id);
	return node;
}

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/*
 * An ICD the loader lists (OCL_ICD_FILENAMES, or an .icd file in
 * OCL_ICD_VENDORS, OPENCL_VENDOR_PATH or /etc/OpenCL/vendors): into path,
 * 1; else 0.  A folder that cannot be read for want of descriptors or
 * memory counts as listing one: the loader failed there the same way.
 */
static int icd_listed(char *path, size_t size)
{
	const char *v = getenv("OCL_ICD_FILENAMES"), *dir;
	struct dirent *e;
	size_t len;
	DIR *d;

	if (v && *v) {
		snprintf(path, size, "OCL_ICD_FILENAMES=%s", v);
		return 1;
	}
	dir = getenv("OCL_ICD_VENDORS");
	if (!dir || !*dir)
		dir = getenv("OPENCL_VENDOR_PATH");
	if (!dir || !*dir)
		dir = "/etc/OpenCL/vendors";
	snprintf(path, size, "%s", dir);
	len = strlen(dir);
	if (len > 4 && strcmp(dir + len - 4, ".icd") == 0)
		return access(dir, F_OK) == 0;
	if (!(d = opendir(dir)))
		return errno == EMFILE || errno == ENFILE || errno == ENOMEM;
	while ((e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".icd") == 0) {
			snprintf(path, size, "%s/%s", dir, e->d_name);
			break;
		}
	}
	closedir(d);
	return e != NULL;
}

unsigned pph__opencl_start(int conf_max)
{
	unsigned max = max_devices(conf_max), p;
	cl_platform_id platforms[8];
	cl_uint nplatforms = 0;
	char icd[512];
	cl_int err;

	ndevices = 0;
	if (!max)
		return 0;
	/* no ICD, no platform: simply no OpenCL workers; but an ICD listed
	 * that the loader could not open (out of descriptors or memory) was
	 * dropped without a word, and an OpenCL-only program said only that
	 * no worker could run its variants */
	err = clGetPlatformIDs(8, platforms, &nplatforms);
	if (err == CL_PLATFORM_NOT_FOUND_KHR && icd_listed(icd, sizeof(icd))) {
		fprintf(stderr, "peppher: OpenCL: clGetPlatformIDs failed (error %d) though %s lists a platform: no OpenCL workers\n",
			(int)err, icd);
		return 0;
	}
	if (err == CL_PLATFORM_NOT_FOUND_KHR || check(err, "clGetPlatformIDs"))
		return 0;
	for (p = 0; p < nplatforms && ndevices < max; p++) {
		cl_device_id ids[PPH_MAX_NODES];
		cl_uint n = 0, i;

		/* a platform without devices says so; any other error is said */
		err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, PPH_MAX_NODES, ids, &n);
		if (err == CL_DEVICE_NOT_FOUND || check(err, "clGetDeviceIDs"))
			continue;
		for (i = 0; i < n && ndevices < max && pph__rt.nnodes < PPH_MAX_NODES; i++)
			open_device(ids[i]);
	}
	return ndevices;
}

void pph__opencl_stop(void)
{
	unsigned i;

	for (i = 0; i < ndevices; i++) {
		struct ocl_device *d = &devices[i];
		struct kernel_entry *k, *next;

		for (k = d->kernels; k; k = next) {
			next = k->next;
			if (k->kernel)
				clReleaseKernel(k->kernel);
			if (k->program)
				clReleaseProgram(k->program);
			free(k->key);
			free(k);
		}
		clReleaseCommandQueue(d->queue);
		clReleaseContext(d->context);
	}
	ndevices = 0;
}

void pph__opencl_bind_thread(void *driver)
{
	current = driver;
}

cl_device_id pph_opencl_device(void)
{
	return current ? current->device : NULL;
}

cl_context pph_opencl_context(void)
{
	return current ? current->context : NULL;
}

cl_command_queue pph_opencl_queue(void)
{
	return current ? current->queue : NULL;
}

/* " for variant NAME" while a variant runs, else "" */
static const char *for_variant(char *buf, size_t size)
{
	const struct pph_task *t = pph__running.task;

	if (!t)
		return "";
	snprintf(buf, size, " for variant %s", t->cl->impls[pph__running.impl].name);
	return buf;
}

static void print_build_log(cl_program program, const char *what, const char *name)
{
	char variant[160];
	size_t len = 0;
	char *log;

	clGetProgramBuildInfo(program, current->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
	log = malloc(len + 1);
	if (log && clGetProgramBuildInfo(program, current->device, CL_PROGRAM_BUILD_LOG,
					 len, log, NULL) == CL_SUCCESS) {
		log[len] = '\0';
		fprintf(stderr, "peppher: OpenCL: building %s (kernel %s)%s failed:\n%s\n", what,
			name, for_variant(variant, sizeof(variant)), log);
	}
	free(log);
}

/* Remember key's program and kernel; both NULL: it cannot be built, and
 * the next call says so without building it again (a build costs tens of
 * milliseconds, and the error was printed once). */
static void remember(const char *key, cl_program program, cl_kernel kernel)
{
	struct kernel_entry *k = calloc(1, sizeof(*k));

	if (!k || !(k->key = strdup(key))) {
		free(k);
		if (kernel)
			clReleaseKernel(kernel);
		if (program)
			clReleaseProgram(program);
		return;
	}
	k->program = program;
	k->kernel = kernel;
	k->next = current->kernels;
	current->kernels = k;
}

/*
 * Build the program and create its kernel name.  On failure (a build
 * error, or clCreateKernel's: a kernel named like an OpenCL built-in,
 * "dot", gives CL_INVALID_KERNEL_NAME on PoCL) the variant cannot run:
 * pph_variant_failed() has its task run on another variant, with the data
 * as it was, and the failure is remembered.
 */
static cl_kernel build_program(const char *key, const char *source, const char *what,
			       const char *name)
{
	char variant[160];
	cl_program program;
	cl_kernel kernel;
	cl_int err;

	program = clCreateProgramWithSource(current->context, 1, &source, NULL, &err);
	if (check(err, "clCreateProgramWithSource")) {
		pph_variant_failed();
		return NULL;
	}
	if (clBuildProgram(program, 1, &current->device, NULL, NULL, NULL) != CL_SUCCESS) {
		print_build_log(program, what, name);
		clReleaseProgram(program);
		remember(key, NULL, NULL);
		pph_variant_failed();
		return NULL;
	}
	kernel = clCreateKernel(program, name, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "peppher: OpenCL: no kernel %s in %s%s (clCreateKernel error %d)\n",
			name, what, for_variant(variant, sizeof(variant)), (int)err);
		clReleaseProgram(program);
		remember(key, NULL, NULL);
		pph_variant_failed();
		return NULL;
	}
	remember(key, program, kernel);
	return kernel;
}

/* The same, its time counted as a one-time cost: taken out of the time
 * the performance model records for the run that builds. */
static cl_kernel build(const char *key, const char *source, const char *what,
		       const char *name)
{
	double t0 = pph__now_us();
	cl_kernel kernel = build_program(key, source, what, name);

	pph__one_time_us += pph__now_us() - t0;
	return kernel;
}

/* The entry of key, built or failed; NULL when never tried. */
static struct kernel_entry *cached(const char *key)
{
	struct kernel_entry *k;

	for (k = current->kernels; k; k = k->next)
		if (strcmp(k->key, key) == 0)
			return k;
	return NULL;
}

/* The kernel of key: cached, or NULL after pph_variant_failed() for one
 * that failed before; else built. */
static cl_kernel kernel_of(const char *key, const char *source, const char *what,
			   const char *name)
{
	struct kernel_entry *k = cached(key);

	if (!k)
		return build(key, source, what, name);
	if (!k->kernel)
		pph_variant_failed();
	return k->kernel;
}

cl_kernel pph_opencl_kernel_source(const char *source, const char *name)
{
	cl_kernel kernel;
	char *key;

	if (!current || !source || !name || asprintf(&key, "%s\n%s", source, name) < 0)
		return NULL;
	kernel = kernel_of(key, source, "the source given to pph_opencl_kernel_source", name);
	free(key);
	return kernel;
}

cl_kernel pph_opencl_kernel(const char *path, const char *name)
{
	struct kernel_entry *k;
	cl_kernel kernel = NULL;
	char *key, *source = NULL;
	FILE *fp;
	long len;

	if (!current || !path || !name || asprintf(&key, "file:%s\n%s", path, name) < 0)
		return NULL;
	if ((k = cached(key))) {
		kernel = kernel_of(key, NULL, path, name);
	} else if ((fp = fopen(path, "rb"))) {
		if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
		    fseek(fp, 0, SEEK_SET) == 0 && (source = malloc((size_t)len + 1)) &&
		    fread(source, 1, (size_t)len, fp) == (size_t)len) {
			source[len] = '\0';
			kernel = build(key, source, path, name);
		} else {
			pph_variant_failed();
		}
		fclose(fp);
	} else {
		fprintf(stderr, "peppher: OpenCL: cannot read %s: %s\n", path, strerror(errno));
		remember(key, NULL, NULL);
		pph_variant_failed();
	}
	free(source);
	free(key);
	return kernel;
}
