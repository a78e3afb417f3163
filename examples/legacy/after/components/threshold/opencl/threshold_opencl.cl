/* threshold: the OpenCL kernel of threshold_opencl (skeleton: fill in). */
__kernel void threshold_opencl(__global float *px, int n, float level)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
