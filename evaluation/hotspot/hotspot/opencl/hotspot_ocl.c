/* One HotSpot step in OpenCL: a work-item per cell. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void hotspot(__global const float *temp, __global const float *power,\n"
	"	__global float *result, int rows, int cols, float sdc, float rx1, float ry1, float rz1)\n"
	"{\n"
	"	int i = get_global_id(1), j = get_global_id(0);\n"
	"	if (i >= rows || j >= cols)\n"
	"		return;\n"
	"	float x = temp[i * cols + j];\n"
	"	float north = temp[(i > 0 ? i - 1 : i) * cols + j];\n"
	"	float south = temp[(i < rows - 1 ? i + 1 : i) * cols + j];\n"
	"	float west = temp[i * cols + (j > 0 ? j - 1 : j)];\n"
	"	float east = temp[i * cols + (j < cols - 1 ? j + 1 : j)];\n"
	"	result[i * cols + j] = x + sdc * (power[i * cols + j] +\n"
	"		(north + south - 2.0f * x) * ry1 + (east + west - 2.0f * x) * rx1 +\n"
	"		(80.0f - x) * rz1);\n"
	"}\n";

void hotspot_ocl(const float *temp, const float *power, float *result, int rows, int cols,
		 float sdc, float rx1, float ry1, float rz1)
{
	cl_kernel k = pph_opencl_kernel_source(source, "hotspot");
	cl_mem t = (cl_mem)(void *)temp, p = (cl_mem)(void *)power, r = (cl_mem)(void *)result;
	size_t global[2] = { ((size_t)cols + 15) / 16 * 16, ((size_t)rows + 15) / 16 * 16 };
	size_t local[2] = { 16, 16 };
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	err |= clSetKernelArg(k, 0, sizeof(t), &t);
	err |= clSetKernelArg(k, 1, sizeof(p), &p);
	err |= clSetKernelArg(k, 2, sizeof(r), &r);
	err |= clSetKernelArg(k, 3, sizeof(rows), &rows);
	err |= clSetKernelArg(k, 4, sizeof(cols), &cols);
	err |= clSetKernelArg(k, 5, sizeof(sdc), &sdc);
	err |= clSetKernelArg(k, 6, sizeof(rx1), &rx1);
	err |= clSetKernelArg(k, 7, sizeof(ry1), &ry1);
	err |= clSetKernelArg(k, 8, sizeof(rz1), &rz1);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 2, NULL, global, local, 0, NULL,
					     NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, result is as it was: another variant runs the step */
		fprintf(stderr, "hotspot_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
