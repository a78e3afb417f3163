/* Left out by the interface's disableOpenCL: never composed. */
void vinc_opencl(float *v, int n, float by)
{
	(void)v; (void)n; (void)by;
}
