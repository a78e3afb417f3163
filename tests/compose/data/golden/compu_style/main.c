/* Every call checked against a sequential computation. */
#include <stdio.h>

#include "peppher.h"

static int check_vscale(int n)
{
	static float v[4096];
	int i, bad = 0;

	for (i = 0; i < n; i++)
		v[i] = (float)i;
	vscale(v, n, 2.5f); /* n >= 1000: only the OpenCL variant may run it */
	for (i = 0; i < n; i++)
		bad += v[i] != 2.5f * (float)i;
	printf("vscale n=%d: %s\n", n, bad ? "WRONG" : "correct");
	return bad;
}

/* Containers: the calls return at once; a matrix call split into blocks. */
static int check_containers(void)
{
	pph_matrix *m = pph_matrix_create_float(100, 3);
	pph_vector *v = pph_vector_create_float(1000);
	pph_scalar *sum = pph_scalar_create(sizeof(double));
	int i, bad = 0;

	for (i = 0; i < 300; i++)
		PPH_MATRIX_SET(m, float, i / 3, i % 3, (float)i);
	for (i = 0; i < 1000; i++)
		PPH_VECTOR_SET(v, float, i, 1.0f);
	cscale(m, 100, 3, 2.0f);
	csum(v, 1000, sum);
	for (i = 0; i < 300; i++)
		bad += PPH_MATRIX_GET(m, float, i / 3, i % 3) != 2.0f * (float)i;
	bad += PPH_SCALAR_GET(sum, double) != 1000.0;
	printf("containers: %s\n", bad ? "WRONG" : "correct");
	pph_scalar_destroy(sum);
	pph_vector_destroy(v);
	pph_matrix_destroy(m);
	return bad;
}

int main(void)
{
	static float a[300 * 7];
	float sums[7], fmax;
	int i, j, bad = 0, ix[5] = { 3, -9, 42, 7, 41 }, imax;

	PEPPHER_INITIALIZE();
	bad += check_vscale(10);
	bad += check_vscale(4096);
	for (i = 0; i < 300; i++)
		for (j = 0; j < 7; j++)
			a[i * 7 + j] = (float)(j + 1);
	colsum(a, 300, 7, sums);
	for (j = 0; j < 7; j++)
		bad += sums[j] != 300.0f * (float)(j + 1);
	printf("colsum: %s\n", bad ? "WRONG" : "correct");
	vmax(a, 300 * 7, &fmax);
	vmax(ix, 5, &imax);
	printf("vmax: %g %d\n", fmax, imax);
	bad += check_containers();
	printf("vnorm1: %g\n", vnorm1(a, 300 * 7));
	PEPPHER_SHUTDOWN();
	return bad != 0;
}
