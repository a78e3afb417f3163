#include <math.h>

double vnorm1_cpu(const float *x, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += fabs(x[i]);
	return s;
}
