/* several implementations checked in one compose, each against its own source */
void scale_a(float *x, int n)
{
	(void)x;
	(void)n;
}
