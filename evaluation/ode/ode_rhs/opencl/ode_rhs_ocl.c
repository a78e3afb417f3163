/* The 2-D Brusselator in OpenCL: a work-item per grid point. */
#include "../../ode_ocl.h"

static const char *const source = ODE_FP64
	"__kernel void rhs(__global const double *y, __global double *f, int n, int grid)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	if (i >= n / 2)\n"
	"		return;\n"
	"	__global const double *u = y, *v = y + n / 2;\n"
	"	double a = 0.002 * grid * grid;\n"
	"	int r = i / grid, c = i % grid;\n"
	"	int e = r * grid + (c + 1) % grid, w = r * grid + (c + grid - 1) % grid;\n"
	"	int s = (r + 1) % grid * grid + c, o = (r + grid - 1) % grid * grid + c;\n"
	"	double uuv = u[i] * u[i] * v[i];\n"
	"	f[i] = 1.0 + uuv - 4.4 * u[i] + a * (u[e] + u[w] + u[s] + u[o] - 4.0 * u[i]);\n"
	"	f[n / 2 + i] = 3.4 * u[i] - uuv + a * (v[e] + v[w] + v[s] + v[o] - 4.0 * v[i]);\n"
	"}\n";

void ode_rhs_ocl(const double *y, double *f, int n, int grid)
{
	ode_ocl_run(source, "rhs", (size_t)n / 2, 64, 4, ODE_MEM(y), ODE_MEM(f), ODE_VAL(n),
		    ODE_VAL(grid));
}
