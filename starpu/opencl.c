/*
 * <peppher/opencl.h> over StarPU's OpenCL workers: the device, context and
 * queue are StarPU's; kernels are built once per device and cached.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <peppher/opencl.h>

#include "internal.h"

struct kernel_entry {
	int devid;
	char *source, *name;
	cl_program program;
	cl_kernel kernel; /* NULL: the build failed */
	struct kernel_entry *next;
};

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kernel_entry *kernels;
static __thread int current_devid = -1;

void sp__opencl_set_current(int devid)
{
	current_devid = devid;
}

int sp__opencl_devid(void)
{
	return current_devid;
}

cl_device_id pph_opencl_device(void)
{
	cl_device_id d = NULL;

	if (current_devid >= 0)
		starpu_opencl_get_device(current_devid, &d);
	return d;
}

cl_context pph_opencl_context(void)
{
	cl_context c = NULL;

	if (current_devid >= 0)
		starpu_opencl_get_context(current_devid, &c);
	return c;
}

cl_command_queue pph_opencl_queue(void)
{
	cl_command_queue q = NULL;

	if (current_devid >= 0)
		starpu_opencl_get_queue(current_devid, &q);
	return q;
}

/* " for variant NAME" while a variant runs, else "" */
static const char *for_variant(char *buf, size_t size)
{
	const char *variant = sp__running_variant();

	if (!variant)
		return "";
	snprintf(buf, size, " for variant %s", variant);
	return buf;
}

/* Build source (read from what) and create its kernel name; the messages
 * are libpeppher's, naming the file and the variant. */
static struct kernel_entry *build(const char *source, const char *what, const char *name)
{
	struct kernel_entry *k = calloc(1, sizeof(*k));
	cl_device_id dev = pph_opencl_device();
	cl_context ctx = pph_opencl_context();
	cl_int err = CL_SUCCESS;
	char variant[160];

	if (!k || !(k->source = strdup(source)) || !(k->name = strdup(name))) {
		if (k)
			free(k->source);
		free(k);
		return NULL;
	}
	k->devid = current_devid;
	k->program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	if (!k->program)
		fprintf(stderr, "peppher: OpenCL: clCreateProgramWithSource failed (error %d)\n",
			(int)err);
	else
		err = clBuildProgram(k->program, 1, &dev, NULL, NULL, NULL);
	if (k->program && err != CL_SUCCESS) {
		size_t len = 0;
		char *log;

		clGetProgramBuildInfo(k->program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
		log = calloc(1, len + 1);
		if (log)
			clGetProgramBuildInfo(k->program, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
		fprintf(stderr, "peppher: OpenCL: building %s (kernel %s)%s failed:\n%s\n", what,
			name, for_variant(variant, sizeof(variant)), log ? log : "");
		free(log);
	} else if (k->program) {
		k->kernel = clCreateKernel(k->program, name, &err);
		if (!k->kernel)
			fprintf(stderr, "peppher: OpenCL: no kernel %s in %s%s (clCreateKernel error %d)\n",
				name, what, for_variant(variant, sizeof(variant)), (int)err);
	}
	return k;
}

/* The kernel name of source, built once per device; NULL after
 * pph_variant_failed() when it does not build, now or before. */
static cl_kernel kernel_of(const char *source, const char *what, const char *name)
{
	struct kernel_entry *k;

	if (!source || !name || current_devid < 0)
		return NULL;
	pthread_mutex_lock(&kernels_lock);
	for (k = kernels; k && !(k->devid == current_devid && strcmp(k->name, name) == 0 &&
				 strcmp(k->source, source) == 0);
	     k = k->next)
		;
	if (!k && (k = build(source, what, name))) {
		k->next = kernels;
		kernels = k;
	}
	pthread_mutex_unlock(&kernels_lock);
	if (!k || !k->kernel) {
		pph_variant_failed();
		return NULL;
	}
	return k->kernel;
}

cl_kernel pph_opencl_kernel_source(const char *source, const char *name)
{
	return kernel_of(source, "the source given to pph_opencl_kernel_source", name);
}

cl_kernel pph_opencl_kernel(const char *path, const char *name)
{
	char *text = NULL;
	long len = -1;
	FILE *fp = path ? fopen(path, "rb") : NULL;
	cl_kernel k = NULL;
	int saved = errno;

	if (fp) {
		if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
		    fseek(fp, 0, SEEK_SET) == 0 && (text = calloc(1, (size_t)len + 1)) &&
		    fread(text, 1, (size_t)len, fp) != (size_t)len) {
			saved = ferror(fp) ? errno : EIO;
			free(text);
			text = NULL;
		} else if (len < 0) {
			saved = errno;
		}
		fclose(fp);
	} else {
		saved = errno;
	}
	if (text) {
		k = kernel_of(text, path, name);
	} else {
		char variant[160];

		fprintf(stderr, "peppher: OpenCL: cannot read %s%s: %s\n", path ? path : "(null)",
			for_variant(variant, sizeof(variant)), strerror(saved));
		pph_variant_failed();
	}
	free(text);
	return k;
}

void sp__opencl_free(void)
{
	struct kernel_entry *k, *next;

	pthread_mutex_lock(&kernels_lock);
	for (k = kernels; k; k = next) {
		next = k->next;
		if (k->kernel)
			clReleaseKernel(k->kernel);
		if (k->program)
			clReleaseProgram(k->program);
		free(k->source);
		free(k->name);
		free(k);
	}
	kernels = NULL;
	pthread_mutex_unlock(&kernels_lock);
}
