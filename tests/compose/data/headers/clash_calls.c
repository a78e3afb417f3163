/* The calls of clash.h, direct (-DDIRECT) and through PEPPHER. */
#include <stdio.h>

#include "clash.h"

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

int main(void)
{
	int v[4] = { 1, 2, 3, 4 };

	PEPPHER_INITIALIZE();
	printf("sum %d neg %d twice %d\n", cl_sum(v, 4, 7), cl_neg(5), cl_twice(21));
	printf("inc %d inc_cpu %d t %d t_args %d\n", cl_inc(1), cl_inc_cpu(1), cl_t(1), cl_t_args(1));
	PEPPHER_SHUTDOWN();
	return 0;
}
