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

void ode_init(pph_vector *y, int n, int grid);
void ode_rhs(pph_vector *y, pph_vector *f, int n, int grid);
void ode_stage(pph_vector *w, pph_vector *y, pph_vector *k1, pph_vector *k2, pph_vector *k3, pph_vector *k4, pph_vector *k5, pph_vector *k6, int n, double h, double a1, double a2, double a3, double a4, double a5, double a6);
void ode_error(pph_vector *err, pph_vector *k1, pph_vector *k3, pph_vector *k4, pph_vector *k5, pph_vector *k6, pph_vector *k7, int n, double h, double e1, double e3, double e4, double e5, double e6, double e7);
void ode_errnorm(pph_scalar *res, pph_vector *err, pph_vector *y, pph_vector *ynew, int n, double atol, double rtol);
void ode_wrms(pph_scalar *res, pph_vector *x, pph_vector *y, int n, double atol, double rtol);
void ode_copy(pph_vector *dst, pph_vector *src, int n);
void ode_axpy(pph_vector *z, pph_vector *x, pph_vector *y, int n, double a);
void ode_sum(pph_scalar *res, pph_vector *x, int n);

#endif
