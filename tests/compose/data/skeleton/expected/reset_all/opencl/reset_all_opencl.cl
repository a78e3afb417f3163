/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* reset_all: the OpenCL kernel of reset_all_opencl (skeleton: fill in). */
__kernel void reset_all_opencl(int flags)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
