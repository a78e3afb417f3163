/* Particle filter resampling in OpenCL: one work-item normalises the
 * weights and sums them up (in order, as on the CPU), then a work-item per
 * new particle finds its parent. */
#include <peppher/opencl.h>

#include "../../pf_common.h"

static const char *const source =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" PF_SOURCE(PF_PARTICLE(, __global))
	"__kernel void prefix(__global const double *x, __global const double *y,\n"
	"	__global double *w, __global double *cdf, __global double *ex, __global double *ey, int n)\n"
	"{\n"
	"	double sum = 0.0, sx = 0.0, sy = 0.0;\n"
	"	int i;\n"
	"	for (i = 0; i < n; i++)\n"
	"		sum += w[i];\n"
	"	for (i = 0; i < n; i++) {\n"
	"		w[i] /= sum;\n"
	"		sx += x[i] * w[i];\n"
	"		sy += y[i] * w[i];\n"
	"		cdf[i] = i > 0 ? cdf[i - 1] + w[i] : w[i];\n"
	"	}\n"
	"	*ex = sx;\n"
	"	*ey = sy;\n"
	"}\n"
	"__kernel void pick(__global const double *x, __global const double *y,\n"
	"	__global double *w, __global const double *cdf, __global double *nx,\n"
	"	__global double *ny, int n, double u1)\n"
	"{\n"
	"	int j = get_global_id(0), i;\n"
	"	if (j >= n)\n"
	"		return;\n"
	"	i = pf_find(cdf, n, (u1 + j) / n);\n"
	"	nx[j] = x[i];\n"
	"	ny[j] = y[i];\n"
	"	w[j] = 1.0 / n;\n"
	"}\n";

void pf_resample_ocl(const double *x, const double *y, double *w, double *nx, double *ny,
		     double *ex, double *ey, int n, double u1)
{
	cl_kernel prefix = pph_opencl_kernel_source(source, "prefix");
	cl_kernel pick = pph_opencl_kernel_source(source, "pick");
	cl_mem cdf = clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE,
				    (size_t)n * sizeof(double), NULL, NULL);
	cl_mem a[6] = { (cl_mem)(void *)x, (cl_mem)(void *)y, (cl_mem)(void *)w, cdf,
			(cl_mem)(void *)ex, (cl_mem)(void *)ey };
	cl_mem b[6] = { a[0], a[1], a[2], cdf, (cl_mem)(void *)nx, (cl_mem)(void *)ny };
	size_t one = 1, global = ((size_t)n + 63) / 64 * 64, local = 64;
	int i;

	if (!prefix || !pick || !cdf) {
		pph_variant_failed();
		return;
	}
	for (i = 0; i < 6; i++) {
		clSetKernelArg(prefix, i, sizeof(cl_mem), &a[i]);
		clSetKernelArg(pick, i, sizeof(cl_mem), &b[i]);
	}
	clSetKernelArg(prefix, 6, sizeof(n), &n);
	clSetKernelArg(pick, 6, sizeof(n), &n);
	clSetKernelArg(pick, 7, sizeof(u1), &u1);
	clEnqueueNDRangeKernel(pph_opencl_queue(), prefix, 1, NULL, &one, &one, 0, NULL, NULL);
	clEnqueueNDRangeKernel(pph_opencl_queue(), pick, 1, NULL, &global, &local, 0, NULL, NULL);
	clFinish(pph_opencl_queue());
	clReleaseMemObject(cdf);
}
