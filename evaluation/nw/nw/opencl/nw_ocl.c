/* Needleman-Wunsch in OpenCL: a work-group of 16 per block, which sweeps
 * the block's own anti-diagonals, one cell per work-item each. */
#include <stdio.h>

#include <peppher/opencl.h>

static const char *const source =
	"__kernel void nw(__global int *score, __global const int *ref, int dim, int diag,\n"
	"	int penalty, int first)\n"
	"{\n"
	"	int bi = first + get_group_id(0), bj = diag - bi, t = get_local_id(0), k;\n"
	"	for (k = 0; k < 31; k++) {\n"
	"		int i = bi * 16 + 1 + t, j = bj * 16 + 1 + k - t;\n"
	"		if (k - t >= 0 && k - t < 16) {\n"
	"			int m = score[(i - 1) * dim + j - 1] + ref[i * dim + j];\n"
	"			m = max(m, score[(i - 1) * dim + j] - penalty);\n"
	"			score[i * dim + j] = max(m, score[i * dim + j - 1] - penalty);\n"
	"		}\n"
	"		barrier(CLK_GLOBAL_MEM_FENCE);\n"
	"	}\n"
	"}\n";

void nw_ocl(int *score, const int *ref, int dim, int diag, int penalty)
{
	cl_kernel k = pph_opencl_kernel_source(source, "nw");
	cl_mem s = (cl_mem)(void *)score, r = (cl_mem)(void *)ref;
	int nb = (dim - 1) / 16, first = diag < nb ? 0 : diag - nb + 1;
	int last = diag < nb ? diag : nb - 1;
	size_t local = 16, global = 16 * (size_t)(last - first + 1);
	cl_int err = CL_SUCCESS;

	if (!k) {
		pph_variant_failed(); /* build log on stderr; another variant runs it */
		return;
	}
	err |= clSetKernelArg(k, 0, sizeof(s), &s);
	err |= clSetKernelArg(k, 1, sizeof(r), &r);
	err |= clSetKernelArg(k, 2, sizeof(dim), &dim);
	err |= clSetKernelArg(k, 3, sizeof(diag), &diag);
	err |= clSetKernelArg(k, 4, sizeof(penalty), &penalty);
	err |= clSetKernelArg(k, 5, sizeof(first), &first);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(pph_opencl_queue(), k, 1, NULL, &global, &local, 0,
					     NULL, NULL);
	if (err != CL_SUCCESS) {
		/* nothing ran, score is as it was: another variant runs the diagonal */
		fprintf(stderr, "nw_ocl: kernel launch failed (%d)\n", (int)err);
		pph_variant_failed();
	}
}
