/*
 * CFD (Rodinia's Euler 3-D solver): compressible flow on an unstructured
 * mesh by finite volumes, CFD_RK Runge-Kutta stages per time step: a call
 * of cfd_step_factor per step, and of cfd_flux and cfd_time_step per stage.
 * Checked against cfd_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "cfd_seq.h"

#define ITERS 4

int main(int argc, char **argv)
{
	struct cfd_mesh m;
	int n = eval_size(argc, argv, 128), it, j;
	size_t size = (size_t)CFD_NVAR * n * n * sizeof(float);
	float *vars = malloc(size), *old = malloc(size), *fluxes = malloc(size), *ref = malloc(size);
	float *sf = malloc((size_t)n * n * sizeof(float));
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	cfd_generate(&m, vars, n);
	memcpy(ref, vars, size);

	t0 = eval_now();
	for (it = 0; it < ITERS; it++) {
		memcpy(old, vars, size);
		cfd_step_factor(vars, m.areas, sf, CFD_NVAR, m.nel);
		for (j = 0; j < CFD_RK; j++) {
			cfd_flux(vars, m.nbs, m.normals, fluxes, CFD_NVAR, CFD_NNB, 3 * CFD_NNB, m.nel);
			cfd_time_step(old, vars, sf, fluxes, j, CFD_NVAR, m.nel);
		}
	}
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	cfd_reference(&m, ref, ITERS);
	return eval_report("cfd", n, t0, eval_diff_float(vars, ref, CFD_NVAR * m.nel, 1e-4));
}
