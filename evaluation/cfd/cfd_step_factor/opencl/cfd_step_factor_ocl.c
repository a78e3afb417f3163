/* CFD step factors in OpenCL: a work-item per element. */
#include <stdio.h>

#include <peppher/opencl.h>

#include "../../cfd_elem.h"

static const char *const source = CFD_ELEM_SOURCE(CFD_ELEM(, __global, sqrt))
	"__kernel void step_factor(__global const float *vars, __global const float *areas,\n"
	"	__global float *sf, int nel)\n"
	"{\n"
	"	if (get_global_id(0) < nel)\n"
	"		cfd_step_factor_elem(vars, areas, sf, get_global_id(0), nel);\n"
	"}\n";

void cfd_step_factor_ocl(const float *vars, const float *areas, float *sf, int nvar, int nel)
{
	cl_kernel k = pph_opencl_kernel_source(source, "step_factor");
	cl_mem m[3] = { (cl_mem)(void *)vars, (cl_mem)(void *)areas, (cl_mem)(void *)sf };
	size_t global = ((size_t)nel + 63) / 64 * 64, local = 64;
	cl_int err = CL_SUCCESS;
	int a;

	(void)nvar;
	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	for (a = 0; a < 3; a++)
		err |= clSetKernelArg(k, a, sizeof(cl_mem), &m[a]);
	err |= clSetKernelArg(k, 3, sizeof(nel), &nel);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, sf is as it was: another variant runs the call */
		fprintf(stderr, "cfd_step_factor_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
