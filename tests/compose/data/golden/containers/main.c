/* Containers make calls asynchronous; a partitioned call runs as 4 blocks. */
#include <stdio.h>

#include "peppher.h"

#define N 1000

int main(void)
{
	pph_vector *v;
	pph_scalar *total;
	int i;

	PEPPHER_INITIALIZE();
	v = pph_vector_create_float(N);
	total = pph_scalar_create(sizeof(double));
	for (i = 0; i < N; i++)
		PPH_VECTOR_SET(v, float, i, (float)i);
	vinc(v, N, 1.0f);
	vinc(v, N, 0.5f);
	vtotal(v, N, total);
	printf("total %.1f (expected %.1f)\n", PPH_SCALAR_GET(total, double),
	       N * (N - 1) / 2.0 + 1.5 * N);
	printf("v[0] %.1f, v[%d] %.1f\n", PPH_VECTOR_GET(v, float, 0), N - 1,
	       PPH_VECTOR_GET(v, float, N - 1));
	pph_scalar_destroy(total);
	pph_vector_destroy(v);
	PEPPHER_SHUTDOWN();
	return 0;
}
