/* For large calls: marks every element 2. */
void pick_large(float *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = 2;
}
