#include "clash.h"

int cl_sum(const int *v, int n, int cl_sum_codelet)
{
	int s = cl_sum_codelet;

	while (n--)
		s += v[n];
	return s;
}

int cl_neg(int PEPPHER_INITIALIZE)
{
	return -PEPPHER_INITIALIZE;
}

const int cl_twice(int x)
{
	return 2 * x;
}

int cl_inc(int x)
{
	return x + 1;
}

int cl_inc_cpu(int x)
{
	return x + 100;
}

int cl_t(int x)
{
	return x + 3;
}

int cl_t_args(int x)
{
	return x + 4;
}
