/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* write_table: the OpenCL kernel of write_table_opencl (skeleton: fill in). */
__kernel void write_table_opencl(__global const double *t, ulong n)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
