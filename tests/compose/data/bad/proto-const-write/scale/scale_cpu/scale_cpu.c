void scale_cpu(const float *x,
	       int n,
	       float factor)
{
	(void)x; (void)n; (void)factor;
}
