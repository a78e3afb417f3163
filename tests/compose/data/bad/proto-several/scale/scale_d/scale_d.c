/* other flags: REAL is double here */
void scale_d(float *x, int n, REAL factor)
{
	(void)x;
	(void)n;
	(void)factor;
}
