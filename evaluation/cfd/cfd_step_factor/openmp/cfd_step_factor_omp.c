/* CFD step factors, elements shared by the OpenMP team. */
#include <math.h>

#include "../../cfd_elem.h"

CFD_ELEM(static inline, , sqrtf)

void cfd_step_factor_omp(const float *vars, const float *areas, float *sf, int nvar, int nel)
{
	int i;

	(void)nvar;
#pragma omp parallel for schedule(static)
	for (i = 0; i < nel; i++)
		cfd_step_factor_elem(vars, areas, sf, i, nel);
}
