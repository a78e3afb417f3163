/* advance: the OpenCL kernel of advance_opencl (skeleton: fill in). */
__kernel void advance_opencl(__global uchar *p, int count, double dt, __global double *energy)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
