/* Particle filter in OpenCL: a work-item moves and weighs a particle. */
#include <stdio.h>

#include <peppher/opencl.h>

#include "../../pf_common.h"

static const char *const source =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" PF_SOURCE(PF_PARTICLE(, __global))
	"__kernel void likelihood(__global const int *frame, __global double *x,\n"
	"	__global double *y, __global const double *noise, __global double *w, int dim, int n)\n"
	"{\n"
	"	if (get_global_id(0) < n)\n"
	"		pf_particle(frame, x, y, noise, w, dim, n, get_global_id(0));\n"
	"}\n";

void pf_likelihood_ocl(const int *frame, double *x, double *y, const double *noise, double *w,
		       int dim, int n, int n2)
{
	cl_kernel k = pph_opencl_kernel_source(source, "likelihood");
	cl_mem m[5] = { (cl_mem)(void *)frame, (cl_mem)(void *)x, (cl_mem)(void *)y,
			(cl_mem)(void *)noise, (cl_mem)(void *)w };
	size_t global = ((size_t)n + 63) / 64 * 64, local = 64;
	cl_int err = CL_SUCCESS;
	int a;

	(void)n2;
	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	for (a = 0; a < 5; a++)
		err |= clSetKernelArg(k, a, sizeof(cl_mem), &m[a]);
	err |= clSetKernelArg(k, 5, sizeof(dim), &dim);
	err |= clSetKernelArg(k, 6, sizeof(n), &n);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, the particles are as they were: another variant runs the call */
		fprintf(stderr, "pf_likelihood_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
