/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* transpose: the OpenCL kernel of transpose_opencl (skeleton: fill in). */
__kernel void transpose_opencl(__global const float *in, __global float *out, int nrows, int ncols)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
