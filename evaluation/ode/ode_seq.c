/* The ODE solver's sequential reference: Dormand-Prince 5(4) in plain loops. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ode_dopri.h"
#include "ode_seq.h"

static void brusselator(const double *y, double *f, int grid)
{
	int n2 = grid * grid, r, c;
	const double *u = y, *v = y + n2;
	double a = 0.002 * grid * grid;

	for (r = 0; r < grid; r++)
		for (c = 0; c < grid; c++) {
			int i = r * grid + c;
			int nb[4] = { r * grid + (c + 1) % grid, r * grid + (c + grid - 1) % grid,
				      (r + 1) % grid * grid + c, (r + grid - 1) % grid * grid + c };
			double uuv = u[i] * u[i] * v[i];

			f[i] = 1.0 + uuv - 4.4 * u[i] + a * (u[nb[0]] + u[nb[1]] + u[nb[2]] + u[nb[3]] - 4.0 * u[i]);
			f[n2 + i] = 3.4 * u[i] - uuv + a * (v[nb[0]] + v[nb[1]] + v[nb[2]] + v[nb[3]] - 4.0 * v[i]);
		}
}

static double wrms(const double *x, const double *y, const double *z, int n)
{
	double s = 0.0;
	int i;

	for (i = 0; i < n; i++) {
		double q = x[i] / (ODE_ATOL + ODE_RTOL * fmax(fabs(y[i]), fabs(z[i])));

		s += q * q;
	}
	return sqrt(s / n);
}

void ode_reference(int grid, double tend, double *y, long *steps, long *rejected)
{
	int n = 2 * grid * grid, i, s, j;
	double *k = calloc((size_t)7 * n, sizeof(double)), *w = malloc(n * sizeof(double));
	double *ynew = malloc(n * sizeof(double)), *err = malloc(n * sizeof(double));
	double t = 0.0, h, d0, d1, d2, e;

	for (i = 0; i < n / 2; i++) {
		double x = (double)(i % grid) / grid, z = (double)(i / grid) / grid;

		y[i] = 22.0 * z * pow(1.0 - z, 1.5);
		y[n / 2 + i] = 27.0 * x * pow(1.0 - x, 1.5);
	}
	brusselator(y, k, grid);
	/* the initial step (Hairer, Norsett and Wanner, II.4) */
	d0 = wrms(y, y, y, n);
	d1 = wrms(k, y, y, n);
	h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
	for (i = 0; i < n; i++)
		w[i] = y[i] + h * k[i];
	brusselator(w, k + n, grid);
	for (i = 0; i < n; i++)
		err[i] = k[n + i] - k[i];
	d2 = wrms(err, y, y, n) / h;
	h = fmin(100 * h, pow(0.01 / fmax(d1, d2), 0.2));
	*steps = *rejected = 0;
	while (t < tend) {
		if (t + h > tend)
			h = tend - t;
		for (s = 1; s <= 6; s++) {
			const double *a = s < 6 ? ode_a[s] : ode_b;
			double *dst = s < 6 ? w : ynew;

			for (i = 0; i < n; i++) {
				double sum = 0.0;

				for (j = 0; j < s; j++)
					sum += a[j] * k[j * n + i];
				dst[i] = y[i] + h * sum;
			}
			brusselator(dst, k + s * n, grid);
		}
		for (i = 0; i < n; i++) {
			double sum = 0.0;

			for (j = 0; j < 7; j++)
				sum += ode_e[j] * k[j * n + i];
			err[i] = h * sum;
		}
		e = wrms(err, y, ynew, n);
		if (e <= 1.0) {
			t += h;
			memcpy(y, ynew, n * sizeof(double));
			memcpy(k, k + 6 * n, n * sizeof(double));
			++*steps;
		} else {
			++*rejected;
		}
		h = ode_next_h(h, e);
	}
	free(k), free(w), free(ynew), free(err);
}
