/* sharpen: the OpenCL kernel of sharpen_opencl (skeleton: fill in). */
__kernel void sharpen_opencl(__global const float *in, __global float *out, int width, int height, float amount)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
