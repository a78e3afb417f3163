/* Particle filter: move and weigh the particles one after the other. */
#include <math.h>

#include "../../pf_common.h"

PF_PARTICLE(static inline, )

void pf_likelihood_cpu(const int *frame, double *x, double *y, const double *noise, double *w,
		       int dim, int n, int n2)
{
	int i;

	(void)n2;
	for (i = 0; i < n; i++)
		pf_particle(frame, x, y, noise, w, dim, n, i);
}
