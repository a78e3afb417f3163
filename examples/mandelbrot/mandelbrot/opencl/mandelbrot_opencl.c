/* One block of rows on the OpenCL device, one work-item per point: img and
   ci are cl_mem values. */
#include <peppher/opencl.h>

static const char *const source =
	"#pragma OPENCL FP_CONTRACT OFF\n"
	"__kernel void mandelbrot(__global int *img, __global const float *ci, int h, int w,\n"
	"			 float x0, float dx, int maxit)\n"
	"{\n"
	"	int c = get_global_id(0), r = get_global_id(1), it = 0;\n"
	"	float cr = x0 + c * dx, zr = 0, zi = 0;\n"
	"	if (c >= w || r >= h) return;\n"
	"	while (it < maxit && zr * zr + zi * zi <= 4.0f) {\n"
	"		float t = zr * zr - zi * zi + cr;\n"
	"		zi = 2.0f * zr * zi + ci[r];\n"
	"		zr = t;\n"
	"		it++;\n"
	"	}\n"
	"	img[r * w + c] = it;\n"
	"}\n";

void mandelbrot_opencl(int *img, const float *ci, int h, int w, float x0, float dx, int maxit)
{
	cl_kernel k = pph_opencl_kernel_source(source, "mandelbrot");
	cl_mem mi = (cl_mem)(void *)img, mc = (cl_mem)(const void *)ci;
	size_t global[2] = { (size_t)w, (size_t)h };

	if (!k) /* the build failed: the runtime knows, and runs the block elsewhere */
		return;
	clSetKernelArg(k, 0, sizeof(mi), &mi);
	clSetKernelArg(k, 1, sizeof(mc), &mc);
	clSetKernelArg(k, 2, sizeof(h), &h);
	clSetKernelArg(k, 3, sizeof(w), &w);
	clSetKernelArg(k, 4, sizeof(x0), &x0);
	clSetKernelArg(k, 5, sizeof(dx), &dx);
	clSetKernelArg(k, 6, sizeof(maxit), &maxit);
	if (clEnqueueNDRangeKernel(pph_opencl_queue(), k, 2, NULL, global, NULL, 0, NULL, NULL) !=
	    CL_SUCCESS)
		pph_variant_failed();
}
