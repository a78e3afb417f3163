/* A = A L^-T on b x b column-major tiles on an OpenCL device: one work-item per row of A. */
#include "../../common/tile_opencl.h"

static const char source[] = TILE_HEADER
	"__kernel void trsm_tile(int b, __global const double *L, __global double *A)\n"
	"{\n"
	"	int r = get_global_id(0);\n"
	"	for (int j = 0; j < b; j++) {\n"
	"		double s = AT(A, r, j);\n"
	"		for (int k = 0; k < j; k++)\n"
	"			s -= AT(A, r, k) * AT(L, j, k);\n"
	"		AT(A, r, j) = s / AT(L, j, j);\n"
	"	}\n"
	"}\n";

void trsm_ocl(int b, const double *L, int ldl, double *A, int lda)
{
	cl_mem mem[2] = { (cl_mem)(void *)L, (cl_mem)(void *)A };

	/* device replicas are packed: the leading dimensions are b */
	(void)ldl;
	(void)lda;

	tile_opencl("trsm_ocl", source, "trsm_tile", b, 1, 0, 2, mem);
}
