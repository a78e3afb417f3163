/* a * b + c rounded twice, as the CPU variant does: remove for speed where
 * the last bit of a result may differ from it */
#pragma OPENCL FP_CONTRACT OFF

/* saxpy: the OpenCL kernel of saxpy_opencl (skeleton: fill in). */
__kernel void saxpy_opencl(ulong n, float a, __global const float *x, __global float *y)
{
	size_t i = get_global_id(0);

	(void)i; /* TODO: element i */
}
