/* A CFD Runge-Kutta stage in OpenCL: a work-item per element. */
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
	int a;

	(void)nvar;
	if (!k)
		return;
	for (a = 0; a < 4; a++)
		clSetKernelArg(k, a, sizeof(cl_mem), &m[a]);
	clSetKernelArg(k, 4, sizeof(j), &j);
	clSetKernelArg(k, 5, sizeof(nel), &nel);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0, NULL, NULL);
}
