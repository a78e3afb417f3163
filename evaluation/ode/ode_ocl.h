/*
 * What the ODE solver's OpenCL variants share: run kernel NAME of program
 * SOURCE (double precision) over ITEMS work-items in groups of LOCAL (0:
 * the implementation's choice), with NARGS arguments given as (size_t size,
 * const void *value) pairs.  Reductions run one work-group of ODE_GROUP,
 * summed in local memory.  A launch that fails, or an argument refused,
 * calls pph_variant_failed(): nothing ran, and another variant runs the
 * call on the data as it was.
 */
#ifndef ODE_OCL_H
#define ODE_OCL_H

#include <stdarg.h>
#include <stdio.h>

#include <peppher/opencl.h>

#define ODE_FP64 "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
#define ODE_GROUP 256
/* the end of a reduction kernel: s summed over the work-group into *res */
#define ODE_REDUCE(FINAL)                                                                   \
	"	__local double part[256];\n"                                                \
	"	int t = get_local_id(0), k;\n"                                              \
	"	part[t] = s;\n"                                                             \
	"	for (k = 128; k > 0; k /= 2) {\n"                                           \
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"                                     \
	"		if (t < k)\n"                                                        \
	"			part[t] += part[t + k];\n"                                   \
	"	}\n"                                                                        \
	"	if (t == 0)\n"                                                              \
	"		*res = " FINAL ";\n"                                                 \
	"}\n"

static inline void ode_ocl_run(const char *source, const char *name, size_t items, size_t local,
			       int nargs, ...)
{
	cl_kernel k = pph_opencl_kernel_source(source, name);
	cl_int err = CL_SUCCESS;
	va_list ap;
	int a;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	va_start(ap, nargs);
	for (a = 0; a < nargs; a++) {
		size_t size = va_arg(ap, size_t);

		err |= clSetKernelArg(k, a, size, va_arg(ap, const void *));
	}
	va_end(ap);
	if (local)
		items = (items + local - 1) / local * local;
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &items,
					     local ? &local : NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "ode: kernel %s: launch failed (%d)\n", name, (int)err);
		pph_variant_failed();
	}
}

/* an argument pair for ode_ocl_run: a cl_mem from a variant's pointer, or a value */
#define ODE_MEM(p) sizeof(cl_mem), (const void *)&(cl_mem){ (cl_mem)(void *)(p) }
#define ODE_VAL(v) sizeof(v), (const void *)&(v)

#endif
