/* pack: the OpenCL kernel of pack_opencl (skeleton: fill in). */
__kernel void pack_opencl(__global ulong *destLen, __global const uchar *source, ulong sourceLen)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
