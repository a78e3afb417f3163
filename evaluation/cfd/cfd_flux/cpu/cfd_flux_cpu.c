/* CFD fluxes, element after element. */
#include <math.h>

#include "../../cfd_elem.h"

CFD_ELEM(static inline, , sqrtf)

void cfd_flux_cpu(const float *vars, const int *nbs, const float *normals, float *fluxes,
		  int nvar, int nnb, int nnrm, int nel)
{
	int i;

	(void)nvar, (void)nnb, (void)nnrm;
	for (i = 0; i < nel; i++)
		cfd_flux_elem(vars, nbs, normals, fluxes, i, nel);
}
