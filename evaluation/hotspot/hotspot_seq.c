/* HotSpot's input generator and sequential reference. */
#include <stdlib.h>

#include "../common/eval.h"
#include "hotspot_seq.h"

void hotspot_generate(float *temp, float *power, int n)
{
	struct eval_rng r = { 17 };
	int i;

	for (i = 0; i < n * n; i++) {
		temp[i] = 323.0f + 20.0f * (float)eval_uniform(&r);
		/* a few hot functional units on a cool background */
		power[i] = (i / n / 16 + i % n / 16) % 5 == 0 ? 0.004f * (float)eval_uniform(&r)
							   : 0.0005f * (float)eval_uniform(&r);
	}
}

struct hotspot_coef hotspot_coefficients(int n)
{
	/* 0.5 mm thick silicon chip, 16 mm a side, as in the HotSpot model */
	const double t_chip = 0.0005, chip = 0.016, k_si = 100.0, spec_heat = 1.75e6;
	const double precision = 0.001, max_pd = 3.0e6, factor_chip = 0.5;
	double gw = chip / n, gh = chip / n;
	double cap = factor_chip * spec_heat * t_chip * gw * gh;
	double rx = gw / (2.0 * k_si * t_chip * gh), ry = gh / (2.0 * k_si * t_chip * gw);
	double rz = t_chip / (k_si * gh * gw);
	double step = precision / (max_pd / (factor_chip * t_chip * spec_heat));
	struct hotspot_coef c = { (float)(step / cap), (float)(1 / rx), (float)(1 / ry), (float)(1 / rz) };

	return c;
}

void hotspot_reference(float *temp, const float *power, int n, int iters)
{
	struct hotspot_coef c = hotspot_coefficients(n);
	float *next = malloc((size_t)n * n * sizeof(*next));
	int it, i, j;

	for (it = 0; it < iters; it++) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				float x = temp[i * n + j];
				float north = temp[(i > 0 ? i - 1 : i) * n + j];
				float south = temp[(i < n - 1 ? i + 1 : i) * n + j];
				float west = temp[i * n + (j > 0 ? j - 1 : j)];
				float east = temp[i * n + (j < n - 1 ? j + 1 : j)];

				next[i * n + j] = x + c.sdc * (power[i * n + j] +
						(north + south - 2.0f * x) * c.ry1 +
						(east + west - 2.0f * x) * c.rx1 +
						(HOTSPOT_AMB - x) * c.rz1);
			}
		memcpy(temp, next, (size_t)n * n * sizeof(*temp));
	}
	free(next);
}
