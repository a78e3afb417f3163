#include <stdio.h>

void scale_cpu(float *arr, int size, float factor, FILE *log)
{
	(void)arr;
	(void)size;
	(void)factor;
	(void)log;
}
