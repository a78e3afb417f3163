/* CFD step factors, element after element. */
#include <math.h>

#include "../../cfd_elem.h"

CFD_ELEM(static inline, , sqrtf)

void cfd_step_factor_cpu(const float *vars, const float *areas, float *sf, int nvar, int nel)
{
	int i;

	(void)nvar;
	for (i = 0; i < nel; i++)
		cfd_step_factor_elem(vars, areas, sf, i, nel);
}
