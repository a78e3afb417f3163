/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* count_until: the OpenCL kernel of count_until_opencl (skeleton: fill in). */
__kernel void count_until_opencl(__global const short *v, int len)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
