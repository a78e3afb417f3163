/*
 * saxpy_split: each call is split into one block per worker (partition="auto"
 * in saxpy.xml), so CPU cores and the OpenCL device work on one call at
 * once.  The result is checked against a sequential computation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "peppher.h"

#define N 1000003 /* not a multiple of the block count */
#define CALLS 12

int main(void)
{
	float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
	int i, c, bad = 0;

	if (!x || !y)
		return 1;
	for (i = 0; i < N; i++) {
		x[i] = (float)(i % 100);
		y[i] = 1.0f;
	}
	PEPPHER_INITIALIZE();
	for (c = 0; c < CALLS; c++)
		saxpy(y, x, N, 0.5f);
	PEPPHER_SHUTDOWN();
	for (i = 0; i < N; i++)
		bad += fabsf(y[i] - (1.0f + CALLS * 0.5f * (float)(i % 100))) > 1e-3f;
	printf("saxpy_split: %d calls on %d elements: %s\n", CALLS, N, bad ? "WRONG" : "correct");
	free(x);
	free(y);
	return bad != 0;
}
