/* A padded matrix (rows 4 elements apart, 3 used) wrapped in a container:
 * scaled by a component given its leading dimension, the padding left as
 * it was; refused by one whose variants read rows packed. */
#include <stdio.h>

#include "peppher.h"

int main(void)
{
	double a[5][4];
	pph_matrix *padded, *packed;
	pph_scalar *total;
	unsigned long failed;
	int i, j;

	for (i = 0; i < 5; i++)
		for (j = 0; j < 4; j++)
			a[i][j] = j < 3 ? i * 3 + j : -1; /* -1: padding */
	PEPPHER_INITIALIZE();
	padded = pph_matrix_wrap_ld(a, 5, 3, 4, sizeof(double));
	packed = pph_matrix_create_double(5, 3);
	total = pph_scalar_create_double();
	mscale(padded, 5, 3, 4, 2.0);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 3; j++)
			PPH_MATRIX_SET(packed, double, i, j, PPH_MATRIX_GET(padded, double, i, j));
	mtotal(packed, 5, 3, total);
	printf("total of the packed copy: %g\n", PPH_SCALAR_GET(total, double));
	failed = pph_failed_calls();
	mtotal(padded, 5, 3, total);
	printf("the padded matrix to mtotal: %s\n", pph_failed_calls() == failed + 1 ? "refused" : "run");
	pph_scalar_destroy(total);
	pph_matrix_destroy(packed);
	pph_matrix_destroy(padded);
	for (i = 0; i < 5; i++)
		printf("%g %g %g | %g\n", a[i][0], a[i][1], a[i][2], a[i][3]);
	/* the refused call was this program's point: PEPPHER_SHUTDOWN() would
	 * stop it with exit status 1 */
	pph_shutdown();
	return 0;
}
