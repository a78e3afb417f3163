/* Disabled in its descriptor: never composed. */
void vinc_off(float *v, int n, float by)
{
	(void)v; (void)n; (void)by;
}
