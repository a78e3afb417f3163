/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* scale: the OpenCL kernel of scale_opencl (skeleton: fill in). */
__kernel void scale_opencl(__global double *data, int len, double factor)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
