/* One block of v: n is the block's size. */
void vinc_cpu(float *v, int n, float by)
{
	for (int i = 0; i < n; i++)
		v[i] += by;
}
