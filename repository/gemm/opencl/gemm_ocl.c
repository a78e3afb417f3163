/* C = C - A B^T on b x b column-major tiles on an OpenCL device. */
#include "../../common/tile_opencl.h"

static const char source[] = TILE_HEADER
	"__kernel void gemm_tile(int b, __global const double *A, __global const double *B,\n"
	"			__global double *C)\n"
	"{\n"
	"	int i = get_global_id(0), j = get_global_id(1);\n"
	"	double s = 0;\n"
	"	for (int k = 0; k < b; k++)\n"
	"		s += AT(A, i, k) * AT(B, j, k);\n"
	"	AT(C, i, j) -= s;\n"
	"}\n";

void gemm_ocl(int b, const double *A, int lda, const double *B, int ldb, double *C, int ldc)
{
	cl_mem mem[3] = { (cl_mem)(void *)A, (cl_mem)(void *)B, (cl_mem)(void *)C };

	/* device replicas are packed: the leading dimensions are b */
	(void)lda;
	(void)ldb;
	(void)ldc;

	tile_opencl("gemm_ocl", source, "gemm_tile", b, 2, 0, 3, mem);
}
