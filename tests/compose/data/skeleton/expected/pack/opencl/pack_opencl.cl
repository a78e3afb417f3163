/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* pack: the OpenCL kernel of pack_opencl (skeleton: fill in). */
__kernel void pack_opencl(__global ulong *destLen, __global const uchar *source, ulong sourceLen)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
