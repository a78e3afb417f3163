/* The error's weighted RMS norm in OpenCL: one work-group. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void errnorm(__global double *res, __global const double *err,\n"
	"	__global const double *y, __global const double *ynew, int n, double atol, double rtol)\n"
	"{\n"
	"	double s = 0.0;\n"
	"	int i;\n"
	"	for (i = get_local_id(0); i < n; i += get_local_size(0)) {\n"
	"		double q = err[i] / (atol + rtol * fmax(fabs(y[i]), fabs(ynew[i])));\n"
	"		s += q * q;\n"
	"	}\n"
	ODE_REDUCE("sqrt(part[0] / n)");

void ode_errnorm_ocl(double *res, const double *err, const double *y, const double *ynew, int n,
		     double atol, double rtol)
{
	ode_ocl_run(source, "errnorm", ODE_GROUP, ODE_GROUP, 7, ODE_MEM(res), ODE_MEM(err),
		    ODE_MEM(y), ODE_MEM(ynew), ODE_VAL(n), ODE_VAL(atol), ODE_VAL(rtol));
}
