/* The embedded error estimate in OpenCL: a work-item per element. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void error(__global double *err, __global const double *k1,\n"
	"	__global const double *k3, __global const double *k4, __global const double *k5,\n"
	"	__global const double *k6, __global const double *k7, int n, double h,\n"
	"	double e1, double e3, double e4, double e5, double e6, double e7)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] +\n"
	"			      e6 * k6[i] + e7 * k7[i]);\n"
	"}\n";

void ode_error_ocl(double *err, const double *k1, const double *k3, const double *k4,
		   const double *k5, const double *k6, const double *k7, int n, double h,
		   double e1, double e3, double e4, double e5, double e6, double e7)
{
	ode_ocl_run(source, "error", (size_t)n, 64, 15, ODE_MEM(err), ODE_MEM(k1), ODE_MEM(k3),
		    ODE_MEM(k4), ODE_MEM(k5), ODE_MEM(k6), ODE_MEM(k7), ODE_VAL(n), ODE_VAL(h),
		    ODE_VAL(e1), ODE_VAL(e3), ODE_VAL(e4), ODE_VAL(e5), ODE_VAL(e6), ODE_VAL(e7));
}
