/* Only on machines with 100000 cores: never composed here. */
void pick_huge(float *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = 3;
}
