/* The Brusselator's initial values in OpenCL: a work-item per grid point. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void init(__global double *y, int n, int grid)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i >= n / 2)\n"
	"		return;\n"
	"	double x = (double)(i % grid) / grid, z = (double)(i / grid) / grid;\n"
	"	y[i] = 22.0 * z * pow(1.0 - z, 1.5);\n"
	"	y[n / 2 + i] = 27.0 * x * pow(1.0 - x, 1.5);\n"
	"}\n";

void ode_init_ocl(double *y, int n, int grid)
{
	ode_ocl_run(source, "init", (size_t)n / 2, 64, 3, ODE_MEM(y), ODE_VAL(n), ODE_VAL(grid));
}
