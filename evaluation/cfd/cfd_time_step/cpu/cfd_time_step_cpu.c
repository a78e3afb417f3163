/* A CFD Runge-Kutta stage, element after element. */
#include <math.h>

#include "../../cfd_elem.h"

CFD_ELEM(static inline, , sqrtf)

void cfd_time_step_cpu(const float *old, float *vars, const float *sf, const float *fluxes, int j,
		       int nvar, int nel)
{
	int i;

	(void)nvar;
	for (i = 0; i < nel; i++)
		cfd_time_step_elem(old, vars, sf, fluxes, j, i, nel);
}
