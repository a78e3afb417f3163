/* The 2-D Brusselator: u' = 1 + u^2 v - 4.4 u + a lap(u), v' = 3.4 u - u^2 v
 * + a lap(v), a = 0.002 / dx^2, periodic. */
void ode_rhs_cpu(const double *y, double *f, int n, int grid)
{
	const double *u = y, *v = y + n / 2, a = 0.002 * grid * grid;
	int i;

	for (i = 0; i < n / 2; i++) {
		int r = i / grid, c = i % grid;
		int e = r * grid + (c + 1) % grid, w = r * grid + (c + grid - 1) % grid;
		int s = (r + 1) % grid * grid + c, o = (r + grid - 1) % grid * grid + c;
		double uuv = u[i] * u[i] * v[i];

		f[i] = 1.0 + uuv - 4.4 * u[i] + a * (u[e] + u[w] + u[s] + u[o] - 4.0 * u[i]);
		f[n / 2 + i] = 3.4 * u[i] - uuv + a * (v[e] + v[w] + v[s] + v[o] - 4.0 * v[i]);
	}
}
