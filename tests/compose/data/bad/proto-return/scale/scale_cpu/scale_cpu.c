int scale_cpu(float *x, int n, float factor)
{
	(void)x; (void)n; (void)factor;
	return 0;
}
