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

void pf_likelihood(const int *frame, double *x, double *y, const double *noise, double *w, int dim, int n, int n2);
void pf_resample(const double *x, const double *y, double *w, double *nx, double *ny, double *ex, double *ey, int n, double u1);

#endif
