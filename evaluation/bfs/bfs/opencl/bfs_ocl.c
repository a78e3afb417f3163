/* One BFS level in OpenCL: two kernels, a work-item per node each; the
 * second counts the next frontier. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void expand(__global const int *starts, __global const int *degrees,\n"
	"	__global const int *edges, __global int *mask, __global int *updating,\n"
	"	__global const int *visited, __global int *cost, int n)\n"
	"{\n"
	"	int i = get_global_id(0), k;\n"
	"	if (i >= n || !mask[i])\n"
	"		return;\n"
	"	mask[i] = 0;\n"
	"	for (k = starts[i]; k < starts[i] + degrees[i]; k++)\n"
	"		if (!visited[edges[k]]) {\n"
	"			cost[edges[k]] = cost[i] + 1;\n"
	"			updating[edges[k]] = 1;\n"
	"		}\n"
	"}\n"
	"__kernel void update(__global int *mask, __global int *updating,\n"
	"	__global int *visited, __global int *next, int n)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i >= n || !updating[i])\n"
	"		return;\n"
	"	mask[i] = visited[i] = 1;\n"
	"	updating[i] = 0;\n"
	"	atomic_inc(next);\n"
	"}\n";

static cl_int set_args(cl_kernel k, int count, cl_mem *mems, int n)
{
	cl_int err = CL_SUCCESS;
	int i;

	for (i = 0; i < count; i++)
		err |= clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]);
	return err | clSetKernelArg(k, count, sizeof(n), &n);
}

void bfs_ocl(const int *starts, const int *degrees, const int *edges, int *mask, int *updating,
	     int *visited, int *cost, int *next, int frontier, int n, int m)
{
	static const int zero;
	cl_kernel expand = pph_opencl_kernel_source(source, "expand");
	cl_kernel update = pph_opencl_kernel_source(source, "update");
	cl_mem e[7] = { (cl_mem)(void *)starts, (cl_mem)(void *)degrees, (cl_mem)(void *)edges,
			(cl_mem)(void *)mask, (cl_mem)(void *)updating, (cl_mem)(void *)visited,
			(cl_mem)(void *)cost };
	cl_mem u[4] = { e[3], e[4], e[5], (cl_mem)(void *)next };
	cl_command_queue q = pph_opencl_queue();
	size_t global = ((size_t)n + 255) / 256 * 256, local = 256;
	char why[64];
	cl_int err;

	(void)frontier;
	(void)m;
	if (!expand || !update) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	/* both kernels' arguments set before anything runs, so that a
	 * refused one leaves the data as it was */
	err = set_args(expand, 7, e, n) | set_args(update, 4, u, n);
	/* next is write-only: a failure after zeroing it leaves the inputs as they were */
	if (err == CL_SUCCESS)
		err = clEnqueueWriteBuffer(q, u[3], CL_FALSE, 0, sizeof(zero), &zero, 0, NULL,
					   NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(q, expand, 1, NULL, &global, &local, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran: another variant runs the level */
		fprintf(stderr, "bfs_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
		return;
	}
	err = clEnqueueNDRangeKernel(q, update, 1, NULL, &global, &local, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		/* expand is queued and clears the frontier's mask: another
		 * variant would find no frontier, so the call fails instead */
		snprintf(why, sizeof(why), "update kernel launch failed (%d)", (int)err);
		pph_variant_error(why);
	}
}
