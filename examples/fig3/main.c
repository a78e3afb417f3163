/*
 * The scenario of the PEPPHER paper's Fig. 3 with a vector container: a
 * write on the device, a host read, a readwrite on the device, two reads on
 * the device, a host write.  Composed with the CPU variants left out
 * (compose --disable-cpu), every call runs on the OpenCL device and the data
 * moves twice, not seven times; PEPPHER_STATS=1 prints the transfers.
 * The results are checked against a sequential computation.
 */
#include <math.h>
#include <stdio.h>

#include "peppher.h"

#define N 4096

int main(void)
{
	pph_vector *v0;
	pph_scalar *s1, *s2;
	float expect = 0;
	int i, bad = 0;

	PEPPHER_INITIALIZE();
	v0 = pph_vector_create_float(N);
	s1 = pph_scalar_create_float();
	s2 = pph_scalar_create_float();
	if (!v0 || !s1 || !s2)
		return 1;

	vfill(v0, N, 1.0f);				/* write on the device */
	for (i = 0; i < N; i++)				/* host read: 1 copy back */
		bad += PPH_VECTOR_GET(v0, float, i) != 1.0f + (float)i;
	vscale(v0, N, 0.5f);				/* readwrite on the device */
	vsum(v0, N, s1);				/* two reads on the device */
	vsum(v0, N, s2);
	PPH_VECTOR_SET(v0, float, 0, -1.0f);		/* host write: 1 copy back */

	for (i = 0; i < N; i++)
		expect += (1.0f + (float)i) * 0.5f;
	bad += fabsf(PPH_SCALAR_GET(s1, float) - expect) > 1e-3f * expect;
	bad += PPH_SCALAR_GET(s1, float) != PPH_SCALAR_GET(s2, float);
	bad += PPH_VECTOR_GET(v0, float, 0) != -1.0f || PPH_VECTOR_GET(v0, float, 1) != 1.0f;
	printf("fig3: sum %.1f, expected %.1f: %s\n", PPH_SCALAR_GET(s1, float), expect,
	       bad ? "WRONG" : "correct");

	pph_scalar_destroy(s2);
	pph_scalar_destroy(s1);
	pph_vector_destroy(v0);
	PEPPHER_SHUTDOWN();
	return bad != 0;
}
