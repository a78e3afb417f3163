#include <stdio.h>

#include "peppher.h"

int main(void)
{
	float f[5] = { 3.5f, -1, 2, 9, 0 };
	int i[6] = { 5, 4, 3, 2, 1, 0 };
	unsigned long u[3] = { 30, 10, 20 };
	int k;

	PEPPHER_INITIALIZE();
	sort(f, 5);	/* _Generic picks sort_float */
	sort(i, 6);	/* sort_int */
	sort(u, 3);	/* sort_unsigned_long */
	PEPPHER_SHUTDOWN();
	for (k = 0; k < 5; k++)
		printf("%g ", f[k]);
	for (k = 0; k < 6; k++)
		printf("%d ", i[k]);
	for (k = 0; k < 3; k++)
		printf("%lu ", u[k]);
	printf("\n");
	return 0;
}
