/*
 * <peppher/opencl.h> over StarPU's OpenCL workers: the device, context and
 * queue are StarPU's; kernels are built once per device and cached.
 */
#include <errno.h>
#include <pthread.h>
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

static struct kernel_entry *build(const char *source, const char *name)
{
	struct kernel_entry *k = calloc(1, sizeof(*k));
	cl_device_id dev = pph_opencl_device();
	cl_context ctx = pph_opencl_context();
	cl_int err = CL_SUCCESS;

	if (!k || !(k->source = strdup(source)) || !(k->name = strdup(name))) {
		if (k)
			free(k->source);
		free(k);
		return NULL;
	}
	k->devid = current_devid;
	k->program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	if (k->program)
		err = clBuildProgram(k->program, 1, &dev, NULL, NULL, NULL);
	if (k->program && err != CL_SUCCESS) {
		size_t len = 0;
		char *log;

		clGetProgramBuildInfo(k->program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
		log = calloc(1, len + 1);
		if (log)
			clGetProgramBuildInfo(k->program, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
		fprintf(stderr, "peppher: OpenCL kernel %s does not build (error %d):\n%s\n", name,
			(int)err, log ? log : "");
		free(log);
	} else if (k->program) {
		k->kernel = clCreateKernel(k->program, name, &err);
		if (!k->kernel)
			fprintf(stderr, "peppher: OpenCL kernel %s: clCreateKernel error %d\n", name,
				(int)err);
	}
	return k;
}

cl_kernel pph_opencl_kernel_source(const char *source, const char *name)
{
	struct kernel_entry *k;

	if (!source || !name || current_devid < 0)
		return NULL;
	pthread_mutex_lock(&kernels_lock);
	for (k = kernels; k && !(k->devid == current_devid && strcmp(k->name, name) == 0 &&
				 strcmp(k->source, source) == 0);
	     k = k->next)
		;
	if (!k && (k = build(source, name))) {
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

cl_kernel pph_opencl_kernel(const char *path, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = path ? fopen(path, "rb") : NULL;
	cl_kernel k = NULL;

	if (fp) {
		fseek(fp, 0, SEEK_END);
		len = (size_t)ftell(fp);
		rewind(fp);
		text = calloc(1, len + 1);
		if (text && fread(text, 1, len, fp) != len) {
			free(text);
			text = NULL;
		}
		fclose(fp);
	}
	if (text)
		k = pph_opencl_kernel_source(text, name);
	else {
		fprintf(stderr, "peppher: OpenCL kernel %s: cannot read %s\n", name ? name : "?",
			path ? path : "(null)");
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
