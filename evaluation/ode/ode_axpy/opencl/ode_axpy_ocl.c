/* z = x + a y in OpenCL: a work-item per element. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void axpy(__global double *z, __global const double *x,\n"
	"	__global const double *y, int n, double a)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		z[i] = x[i] + a * y[i];\n"
	"}\n";

void ode_axpy_ocl(double *z, const double *x, const double *y, int n, double a)
{
	ode_ocl_run(source, "axpy", (size_t)n, 64, 5, ODE_MEM(z), ODE_MEM(x), ODE_MEM(y), ODE_VAL(n),
		    ODE_VAL(a));
}
