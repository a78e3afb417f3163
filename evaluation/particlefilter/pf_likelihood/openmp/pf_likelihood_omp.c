/* Particle filter: move and weigh the particles shared by the OpenMP team. */
#include <math.h>

#include "../../pf_common.h"

PF_PARTICLE(static inline, )

void pf_likelihood_omp(const int *frame, double *x, double *y, const double *noise, double *w,
		       int dim, int n, int n2)
{
	int i;

	(void)n2;
#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		pf_particle(frame, x, y, noise, w, dim, n, i);
}
