/* The Brusselator's initial values (Hairer and Wanner's BRUSS-2D). */
#include <math.h>

void ode_init_cpu(double *y, int n, int grid)
{
	int i;

	for (i = 0; i < n / 2; i++) {
		double x = (double)(i % grid) / grid, z = (double)(i / grid) / grid;

		y[i] = 22.0 * z * pow(1.0 - z, 1.5);
		y[n / 2 + i] = 27.0 * x * pow(1.0 - x, 1.5);
	}
}
