/* A stage's argument in OpenCL: a work-item per element. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void stage(__global double *w, __global const double *y,\n"
	"	__global const double *k1, __global const double *k2, __global const double *k3,\n"
	"	__global const double *k4, __global const double *k5, __global const double *k6,\n"
	"	int n, double h, double a1, double a2, double a3, double a4, double a5, double a6)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		w[i] = y[i] + h * (a1 * k1[i] + a2 * k2[i] + a3 * k3[i] + a4 * k4[i] +\n"
	"				   a5 * k5[i] + a6 * k6[i]);\n"
	"}\n";

void ode_stage_ocl(double *w, const double *y, const double *k1, const double *k2,
		   const double *k3, const double *k4, const double *k5, const double *k6, int n,
		   double h, double a1, double a2, double a3, double a4, double a5, double a6)
{
	ode_ocl_run(source, "stage", (size_t)n, 64, 16, ODE_MEM(w), ODE_MEM(y), ODE_MEM(k1),
		    ODE_MEM(k2), ODE_MEM(k3), ODE_MEM(k4), ODE_MEM(k5), ODE_MEM(k6), ODE_VAL(n),
		    ODE_VAL(h), ODE_VAL(a1), ODE_VAL(a2), ODE_VAL(a3), ODE_VAL(a4), ODE_VAL(a5),
		    ODE_VAL(a6));
}
