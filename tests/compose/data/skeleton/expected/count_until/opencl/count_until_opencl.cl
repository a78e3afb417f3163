/* count_until: the OpenCL kernel of count_until_opencl (skeleton: fill in). */
__kernel void count_until_opencl(__global const short *v, int len)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
