/* A long long size, a double in a constraint and workSize, a size_t size,
 * volatile data. */
#include <stdio.h>

#include "peppher.h"

#define N 10

int main(void)
{
	volatile float x[N];
	float y[N];
	pph_vector *v;
	int i;

	PEPPHER_INITIALIZE();
	for (i = 0; i < N; i++)
		x[i] = (float)i;
	ucopy(y, x, N);
	v = pph_vector_create_float(N);
	for (i = 0; i < N; i++)
		PPH_VECTOR_SET(v, float, i, y[i]);
	lscale(v, N, 2.0);
	printf("v[%d] %.1f\n", N - 1, PPH_VECTOR_GET(v, float, N - 1));
	pph_vector_destroy(v);
	PEPPHER_SHUTDOWN();
	return 0;
}
