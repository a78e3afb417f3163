/* write_table: the OpenCL kernel of write_table_opencl (skeleton: fill in). */
__kernel void write_table_opencl(__global const double *t, ulong n)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
