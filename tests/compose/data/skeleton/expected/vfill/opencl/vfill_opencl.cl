/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* vfill: the OpenCL kernel of vfill_opencl (skeleton: fill in). */
__kernel void vfill_opencl(__global float *v, int n, float value)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
