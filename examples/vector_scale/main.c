/*
 * vector_scale: a PEPPHER-ized application.  Its code differs from the
 * sequential original by three lines: the include, PEPPHER_INITIALIZE() and
 * PEPPHER_SHUTDOWN().  Each call to vector_scale() becomes a task the runtime
 * runs with one of the variants; the result is checked against a sequential
 * computation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "peppher.h"

#define N 100000
#define CALLS 32

int main(void)
{
	float *x = malloc(N * sizeof(*x)), *ref = malloc(N * sizeof(*ref));
	int i, c, bad = 0;

	if (!x || !ref)
		return 1;
	for (i = 0; i < N; i++)
		x[i] = ref[i] = (float)(i % 1000) * 0.001f;

	PEPPHER_INITIALIZE();
	for (c = 0; c < CALLS; c++)
		vector_scale(x, N, 1.0f + 0.01f * (float)c, 0.5f);
	PEPPHER_SHUTDOWN();

	for (c = 0; c < CALLS; c++)
		for (i = 0; i < N; i++)
			ref[i] = (1.0f + 0.01f * (float)c) * ref[i] + 0.5f;
	for (i = 0; i < N; i++)
		if (fabsf(x[i] - ref[i]) > 1e-4f * fabsf(ref[i]))
			bad++;
	printf("vector_scale: %d calls on %d elements: %s\n", CALLS, N,
	       bad ? "WRONG" : "correct");
	free(x);
	free(ref);
	return bad != 0;
}
