/*
 * HotSpot (Rodinia): the transient temperature of a chip from its power
 * map, by explicit time steps of a 5-point stencil.  Each step is a call
 * of the hotspot component; the result is checked against hotspot_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "hotspot_seq.h"

#define ITERS 20

int main(int argc, char **argv)
{
	int n = eval_size(argc, argv, 256), it;
	size_t cells = (size_t)n * n;
	float *temp = malloc(cells * sizeof(float)), *next = malloc(cells * sizeof(float));
	float *power = malloc(cells * sizeof(float)), *ref = malloc(cells * sizeof(float));
	struct hotspot_coef c = hotspot_coefficients(n);
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	hotspot_generate(temp, power, n);
	memcpy(ref, temp, cells * sizeof(float));

	t0 = eval_now();
	for (it = 0; it < ITERS; it++) {
		float *t;

		hotspot(temp, power, next, n, n, c.sdc, c.rx1, c.ry1, c.rz1);
		t = temp, temp = next, next = t;
	}
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	hotspot_reference(ref, power, n, ITERS);
	return eval_report("hotspot", n, t0, eval_diff_float(temp, ref, (long)cells, 1e-4));
}
