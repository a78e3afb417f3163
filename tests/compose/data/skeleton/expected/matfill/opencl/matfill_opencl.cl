/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* matfill: the OpenCL kernel of matfill_opencl (skeleton: fill in). */
__kernel void matfill_opencl(__global double *A, int m, int n, double value)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
