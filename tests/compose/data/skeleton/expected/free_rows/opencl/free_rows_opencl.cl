/* free_rows: the OpenCL kernel of free_rows_opencl (skeleton: fill in). */
__kernel void free_rows_opencl(int nrows)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
