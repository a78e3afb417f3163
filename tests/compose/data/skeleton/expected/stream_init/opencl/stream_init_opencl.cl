/* stream_init: the OpenCL kernel of stream_init_opencl (skeleton: fill in). */
__kernel void stream_init_opencl(int level)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
