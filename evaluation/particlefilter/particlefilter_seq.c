/* The particle filter's video generator and sequential reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/eval.h"
#include "pf_common.h"
#include "particlefilter_seq.h"

PF_PARTICLE(static inline, )

static double gaussian(struct eval_rng *r)
{
	double u = eval_uniform(r) + 1e-12, v = eval_uniform(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

void pf_generate(int *video, double *noise, double *u1, int n)
{
	struct eval_rng r = { 23 };
	int f, i, j;

	for (f = 0; f < PF_FRAMES; f++) {
		int cx = PF_DIM / 2 + f, cy = PF_DIM / 2 - 2 * f;

		for (i = 0; i < PF_DIM; i++)
			for (j = 0; j < PF_DIM; j++) {
				int in = (i - cy) * (i - cy) + (j - cx) * (j - cx) <= PF_R * PF_R;
				int v = (in ? 228 : 100) + (int)(5.0 * gaussian(&r));

				video[(f * PF_DIM + i) * PF_DIM + j] = v < 0 ? 0 : v > 255 ? 255 : v;
			}
		for (i = 0; i < 2 * n; i++)
			noise[(size_t)f * 2 * n + i] = gaussian(&r);
		u1[f] = eval_uniform(&r);
	}
}

void pf_reference(const int *video, const double *noise, const double *u1, int n, double *est)
{
	double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
	double *w = malloc(n * sizeof(double)), *cdf = malloc(n * sizeof(double));
	double *nx = malloc(n * sizeof(double)), *ny = malloc(n * sizeof(double));
	int f, i, j;

	for (i = 0; i < n; i++) {
		x[i] = PF_DIM / 2;
		y[i] = PF_DIM / 2;
		w[i] = 1.0 / n;
	}
	for (f = 0; f < PF_FRAMES; f++) {
		double sum = 0.0;

		for (i = 0; i < n; i++)
			pf_particle(video + (size_t)f * PF_DIM * PF_DIM, x, y, noise + (size_t)f * 2 * n,
				    w, PF_DIM, n, i);
		for (i = 0; i < n; i++)
			sum += w[i];
		est[2 * f] = est[2 * f + 1] = 0.0;
		for (i = 0; i < n; i++) {
			w[i] /= sum;
			est[2 * f] += x[i] * w[i];
			est[2 * f + 1] += y[i] * w[i];
			cdf[i] = (i > 0 ? cdf[i - 1] : 0.0) + w[i];
		}
		for (j = 0; j < n; j++) {
			for (i = 0; i < n - 1 && cdf[i] < (u1[f] + j) / n; i++)
				;
			nx[j] = x[i];
			ny[j] = y[i];
		}
		memcpy(x, nx, n * sizeof(double));
		memcpy(y, ny, n * sizeof(double));
		for (i = 0; i < n; i++)
			w[i] = 1.0 / n;
	}
	free(x), free(y), free(w), free(cdf), free(nx), free(ny);
}
