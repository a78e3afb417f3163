/* The Dormand-Prince 5(4) tableau (autonomous systems: no nodes c), with
 * the step size controller's constants. */
#ifndef ODE_DOPRI_H
#define ODE_DOPRI_H

#define ODE_ATOL 1e-6
#define ODE_RTOL 1e-6

/* stage s (1..5) takes y + h (a[s][0] k1 + ... + a[s][5] k6) */
static const double ode_a[6][6] = {
	{ 0 },
	{ 1 / 5.0 },
	{ 3 / 40.0, 9 / 40.0 },
	{ 44 / 45.0, -56 / 15.0, 32 / 9.0 },
	{ 19372 / 6561.0, -25360 / 2187.0, 64448 / 6561.0, -212 / 729.0 },
	{ 9017 / 3168.0, -355 / 33.0, 46732 / 5247.0, 49 / 176.0, -5103 / 18656.0 },
};
/* the 5th-order solution (also stage 7's argument: FSAL) */
static const double ode_b[6] = { 35 / 384.0, 0, 500 / 1113.0, 125 / 192.0, -2187 / 6784.0, 11 / 84.0 };
/* 5th- minus 4th-order weights: the error estimate (e[1] = 0) */
static const double ode_e[7] = { 71 / 57600.0, 0, -71 / 16695.0, 71 / 1920.0, -17253 / 339200.0,
				 22 / 525.0, -1 / 40.0 };

/* the next step size after an error of norm err (rejected: never larger) */
static inline double ode_next_h(double h, double err)
{
	double fac = 0.9 * pow(err > 1e-10 ? err : 1e-10, -0.2);

	fac = fac < 0.2 ? 0.2 : fac > 5.0 ? 5.0 : fac;
	return h * (err > 1.0 && fac > 1.0 ? 1.0 : fac);
}

#endif
