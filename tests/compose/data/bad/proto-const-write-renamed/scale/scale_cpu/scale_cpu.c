void scale_cpu(const float *in,
	       int n,
	       float factor)
{
	(void)in; (void)n; (void)factor;
}
