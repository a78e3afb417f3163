/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* free_rows: the OpenCL kernel of free_rows_opencl (skeleton: fill in). */
__kernel void free_rows_opencl(int nrows)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
