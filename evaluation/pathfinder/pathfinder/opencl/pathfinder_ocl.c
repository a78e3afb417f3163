/* PathFinder in OpenCL: a kernel per row, a work-item per column; the rows
 * alternate between dst and a scratch buffer so that the last lands in dst. */
#include <peppher/opencl.h>

static const char *const source =
	"__kernel void row(__global const int *wall, __global const int *prev,\n"
	"	__global int *next, int cols, int r)\n"
	"{\n"
	"	int j = get_global_id(0);\n"
	"	if (j >= cols)\n"
	"		return;\n"
	"	int best = prev[j];\n"
	"	if (j > 0)\n"
	"		best = min(best, prev[j - 1]);\n"
	"	if (j < cols - 1)\n"
	"		best = min(best, prev[j + 1]);\n"
	"	next[j] = wall[(long)r * cols + j] + best;\n"
	"}\n";

void pathfinder_ocl(const int *wall, const int *src, int *dst, int rows, int cols, int row0,
		    int height)
{
	cl_kernel k = pph_opencl_kernel_source(source, "row");
	cl_mem w = (cl_mem)(void *)wall, cur = (cl_mem)(void *)src, d = (cl_mem)(void *)dst;
	cl_mem tmp = clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE,
				    (size_t)cols * sizeof(int), NULL, NULL);
	size_t global = ((size_t)cols + 63) / 64 * 64, local = 64;
	int r;

	(void)rows;
	if (!k || !tmp) {
		pph_variant_failed();
		return;
	}
	for (r = row0 + 1; r <= row0 + height; r++) {
		cl_mem next = (row0 + height - r) % 2 == 0 ? d : tmp;

		clSetKernelArg(k, 0, sizeof(w), &w);
		clSetKernelArg(k, 1, sizeof(cur), &cur);
		clSetKernelArg(k, 2, sizeof(next), &next);
		clSetKernelArg(k, 3, sizeof(cols), &cols);
		clSetKernelArg(k, 4, sizeof(r), &r);
		clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0, NULL, NULL);
		cur = next;
	}
	clFinish(pph_opencl_queue());
	clReleaseMemObject(tmp);
}
