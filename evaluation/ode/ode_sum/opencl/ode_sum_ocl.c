/* The sum of the elements of x in OpenCL: one work-group. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void sum(__global double *res, __global const double *x, int n)\n"
	"{\n"
	"	double s = 0.0;\n"
	"	int i;\n"
	"	for (i = get_local_id(0); i < n; i += get_local_size(0))\n"
	"		s += x[i];\n"
	ODE_REDUCE("part[0]");

void ode_sum_ocl(double *res, const double *x, int n)
{
	ode_ocl_run(source, "sum", ODE_GROUP, ODE_GROUP, 3, ODE_MEM(res), ODE_MEM(x), ODE_VAL(n));
}
