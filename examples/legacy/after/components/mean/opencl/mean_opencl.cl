/* mean: the OpenCL kernel of mean_opencl (skeleton: fill in). */
__kernel void mean_opencl(__global const float *px, int n)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
