/* Particle filter: normalise, estimate, and resample systematically, the
 * particles shared by the OpenMP team. */
#include <math.h>
#include <stdlib.h>

#include "../../pf_common.h"

PF_PARTICLE(static inline, )

void pf_resample_omp(const double *x, const double *y, double *w, double *nx, double *ny,
		     double *ex, double *ey, int n, double u1)
{
	double *cdf = malloc((size_t)n * sizeof(*cdf)), sum = 0.0;
	int i, j;

	for (i = 0; i < n; i++)
		sum += w[i];
	*ex = *ey = 0.0;
	for (i = 0; i < n; i++) {
		w[i] /= sum;
		*ex += x[i] * w[i];
		*ey += y[i] * w[i];
		cdf[i] = i > 0 ? cdf[i - 1] + w[i] : w[i];
	}
#pragma omp parallel for private(i) schedule(static)
	for (j = 0; j < n; j++) {
		i = pf_find(cdf, n, (u1 + j) / n);
		nx[j] = x[i];
		ny[j] = y[i];
		w[j] = 1.0 / n;
	}
	free(cdf);
}
