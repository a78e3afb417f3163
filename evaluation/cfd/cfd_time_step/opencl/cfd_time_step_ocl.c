/* A CFD Runge-Kutta stage in OpenCL: a work-item per element. */
#include <stdio.h>

#include <peppher/opencl.h>

#include "../../cfd_elem.h"

static const char *const source = CFD_ELEM_SOURCE(CFD_ELEM(, __global, sqrt))
	"__kernel void time_step(__global const float *old, __global float *vars,\n"
	"	__global const float *sf, __global const float *fluxes, int j, int nel)\n"
	"{\n"
	"	if (get_global_id(0) < nel)\n"
	"		cfd_time_step_elem(old, vars, sf, fluxes, j, get_global_id(0), nel);\n"
	"}\n";

void cfd_time_step_ocl(const float *old, float *vars, const float *sf, const float *fluxes, int j,
		       int nvar, int nel)
{
	cl_kernel k = pph_opencl_kernel_source(source, "time_step");
	cl_mem m[4] = { (cl_mem)(void *)old, (cl_mem)(void *)vars, (cl_mem)(void *)sf,
			(cl_mem)(void *)fluxes };
	size_t global = ((size_t)nel + 63) / 64 * 64, local = 64;
	cl_int err = CL_SUCCESS;
	int a;

	(void)nvar;
	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	for (a = 0; a < 4; a++)
		err |= clSetKernelArg(k, a, sizeof(cl_mem), &m[a]);
	err |= clSetKernelArg(k, 4, sizeof(j), &j);
	err |= clSetKernelArg(k, 5, sizeof(nel), &nel);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, vars is as it was: another variant runs the stage */
		fprintf(stderr, "cfd_time_step_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
