/* y = A x, A in ELLPACK form, on an OpenCL device: a work-item per row. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void spmv_ell(__global const int *colind, __global const float *val,\n"
	"	__global const float *x, __global float *y, int m, int w)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i >= m)\n"
	"		return;\n"
	"	float s = 0;\n"
	"	for (int k = 0; k < w; k++)\n"
	"		s += val[(long)i * w + k] * x[colind[(long)i * w + k]];\n"
	"	y[i] = s;\n"
	"}\n";

void spmv_ell_ocl(const int *colind, const float *val, const float *x, float *y, int m, int w,
		  int n)
{
	cl_kernel k = pph_opencl_kernel_source(source, "spmv_ell");
	cl_mem c = (cl_mem)(void *)colind, v = (cl_mem)(void *)val, xm = (cl_mem)(void *)x;
	cl_mem ym = (cl_mem)(void *)y;
	size_t global = ((size_t)m + 63) / 64 * 64, local = 64;
	cl_int err = CL_SUCCESS;

	(void)n;
	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	err |= clSetKernelArg(k, 0, sizeof(c), &c);
	err |= clSetKernelArg(k, 1, sizeof(v), &v);
	err |= clSetKernelArg(k, 2, sizeof(xm), &xm);
	err |= clSetKernelArg(k, 3, sizeof(ym), &ym);
	err |= clSetKernelArg(k, 4, sizeof(m), &m);
	err |= clSetKernelArg(k, 5, sizeof(w), &w);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, y is as it was: another variant runs the product */
		fprintf(stderr, "spmv_ell_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
