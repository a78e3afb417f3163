/* report: the OpenCL kernel of report_opencl (skeleton: fill in). */
__kernel void report_opencl(void)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
