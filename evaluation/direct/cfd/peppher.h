/* The direct version's own declarations: what main.c includes in place of
 * compose's peppher.h. */
#ifndef PEPPHER_H
#define PEPPHER_H

#include <string.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>
#include <peppher/containers.h>

#define PEPPHER_INITIALIZE() PPH_INITIALIZE_OR_EXIT()
#define PEPPHER_SHUTDOWN() pph_shutdown()

void cfd_step_factor(const float *vars, const float *areas, float *sf, int nvar, int nel);
void cfd_flux(const float *vars, const int *nbs, const float *normals, float *fluxes, int nvar, int nnb, int nnrm, int nel);
void cfd_time_step(const float *old, float *vars, const float *sf, const float *fluxes, int j, int nvar, int nel);

#endif
