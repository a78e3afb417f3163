/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* norm2: the OpenCL kernel of norm2_opencl (skeleton: fill in). */
__kernel void norm2_opencl(__global const double *v, int v_len, int mode)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
