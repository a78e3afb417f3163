/* For small calls: marks every element 1. */
void pick_small(float *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = 1;
}
