/*
 * The Cholesky factor of a b x b column-major tile on an OpenCL device: a
 * right-looking factorization by one work-group, the columns of the
 * trailing matrix shared among its work-items at each step.
 */
#include "../../common/tile_opencl.h"

static const char source[] = TILE_HEADER
	"__kernel void potrf_tile(int b, __global double *A)\n"
	"{\n"
	"	int lid = get_local_id(0), size = get_local_size(0);\n"
	"	for (int j = 0; j < b; j++) {\n"
	"		if (lid == 0)\n"
	"			AT(A, j, j) = sqrt(AT(A, j, j));\n"
	"		barrier(CLK_GLOBAL_MEM_FENCE);\n"
	"		double d = AT(A, j, j);\n"
	"		for (int i = j + 1 + lid; i < b; i += size)\n"
	"			AT(A, i, j) /= d;\n"
	"		barrier(CLK_GLOBAL_MEM_FENCE);\n"
	"		for (int k = j + 1 + lid; k < b; k += size) {\n"
	"			double lkj = AT(A, k, j);\n"
	"			for (int i = k; i < b; i++)\n"
	"				AT(A, i, k) -= AT(A, i, j) * lkj;\n"
	"		}\n"
	"		barrier(CLK_GLOBAL_MEM_FENCE);\n"
	"	}\n"
	"}\n";

void potrf_ocl(int b, double *A, int lda)
{
	cl_mem mem[1] = { (cl_mem)(void *)A };

	/* device replicas are packed: the leading dimensions are b */
	(void)lda;

	tile_opencl("potrf_ocl", source, "potrf_tile", b, 1, 256, 1, mem);
}
