/* sort_keys: the OpenCL kernel of sort_keys_opencl (skeleton: fill in). */
__kernel void sort_keys_opencl(__global int *keys, int n)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
