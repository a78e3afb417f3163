/* CFD fluxes in OpenCL: a work-item per element. */
#include <peppher/opencl.h>

#include "../../cfd_elem.h"

static const char *const source = CFD_ELEM_SOURCE(CFD_ELEM(, __global, sqrt))
	"__kernel void flux(__global const float *vars, __global const int *nbs,\n"
	"	__global const float *normals, __global float *fluxes, int nel)\n"
	"{\n"
	"	if (get_global_id(0) < nel)\n"
	"		cfd_flux_elem(vars, nbs, normals, fluxes, get_global_id(0), nel);\n"
	"}\n";

void cfd_flux_ocl(const float *vars, const int *nbs, const float *normals, float *fluxes,
		  int nvar, int nnb, int nnrm, int nel)
{
	cl_kernel k = pph_opencl_kernel_source(source, "flux");
	cl_mem m[4] = { (cl_mem)(void *)vars, (cl_mem)(void *)nbs, (cl_mem)(void *)normals,
			(cl_mem)(void *)fluxes };
	size_t global = ((size_t)nel + 63) / 64 * 64, local = 64;
	int a;

	(void)nvar, (void)nnb, (void)nnrm;
	if (!k)
		return;
	for (a = 0; a < 4; a++)
		clSetKernelArg(k, a, sizeof(cl_mem), &m[a]);
	clSetKernelArg(k, 4, sizeof(nel), &nel);
	clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0, NULL, NULL);
}
