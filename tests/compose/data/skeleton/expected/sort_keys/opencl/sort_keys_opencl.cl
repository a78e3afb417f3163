/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* sort_keys: the OpenCL kernel of sort_keys_opencl (skeleton: fill in). */
__kernel void sort_keys_opencl(__global int *keys, int n)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
