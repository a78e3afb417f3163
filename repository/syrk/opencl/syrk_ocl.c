/* C = C - A A^T (lower triangle) on b x b column-major tiles on an OpenCL device. */
#include "../../common/tile_opencl.h"

static const char source[] = TILE_HEADER
	"__kernel void syrk_tile(int b, __global const double *A, __global double *C)\n"
	"{\n"
	"	int i = get_global_id(0), j = get_global_id(1);\n"
	"	if (i >= j) {\n"
	"		double s = 0;\n"
	"		for (int k = 0; k < b; k++)\n"
	"			s += AT(A, i, k) * AT(A, j, k);\n"
	"		AT(C, i, j) -= s;\n"
	"	}\n"
	"}\n";

void syrk_ocl(int b, const double *A, int lda, double *C, int ldc)
{
	cl_mem mem[2] = { (cl_mem)(void *)A, (cl_mem)(void *)C };

	/* device replicas are packed: the leading dimensions are b */
	(void)lda;
	(void)ldc;

	tile_opencl("syrk_ocl", source, "syrk_tile", b, 2, 0, 2, mem);
}
