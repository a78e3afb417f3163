/* db_count: the OpenCL kernel of db_count_opencl (skeleton: fill in). */
__kernel void db_count_opencl(void)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
