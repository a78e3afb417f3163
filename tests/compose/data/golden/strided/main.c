#include <stdio.h>

#include "peppher.h"

int main(void)
{
	float x[7] = { 1, 9, 2, 9, 3, 9, 4 }, y[8] = { 0 }, A[3 * 4] = { 0 };
	int i;

	PEPPHER_INITIALIZE();
	axpy(4, 2.0f, x, 2, y, 2);
	fill(A, 3, 2, 4, 5.0f);
	PEPPHER_SHUTDOWN();
	for (i = 0; i < 8; i++)
		printf("%g%c", y[i], i == 7 ? '\n' : ' ');
	for (i = 0; i < 12; i++)
		printf("%g%c", A[i], i % 4 == 3 ? '\n' : ' ');
	return 0;
}
