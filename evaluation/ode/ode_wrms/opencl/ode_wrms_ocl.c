/* The weighted RMS norm of x in OpenCL: one work-group. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void wrms(__global double *res, __global const double *x,\n"
	"	__global const double *y, int n, double atol, double rtol)\n"
	"{\n"
	"	double s = 0.0;\n"
	"	int i;\n"
	"	for (i = get_local_id(0); i < n; i += get_local_size(0)) {\n"
	"		double q = x[i] / (atol + rtol * fabs(y[i]));\n"
	"		s += q * q;\n"
	"	}\n"
	ODE_REDUCE("sqrt(part[0] / n)");

void ode_wrms_ocl(double *res, const double *x, const double *y, int n, double atol, double rtol)
{
	ode_ocl_run(source, "wrms", ODE_GROUP, ODE_GROUP, 6, ODE_MEM(res), ODE_MEM(x), ODE_MEM(y),
		    ODE_VAL(n), ODE_VAL(atol), ODE_VAL(rtol));
}
