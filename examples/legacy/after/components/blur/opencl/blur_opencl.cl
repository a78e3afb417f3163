/* blur: the OpenCL kernel of blur_opencl, one work-item a pixel, computed as
 * the original computes it (the weights are powers of two, so contraction
 * cannot change a result). */
__kernel void blur_opencl(__global const float *in, __global float *out, int width, int height)
{
	int x = get_global_id(0), y = get_global_id(1);
	int u = max(y - 1, 0) * width, m = y * width, d = min(y + 1, height - 1) * width;
	int l = max(x - 1, 0), r = min(x + 1, width - 1);
	float s = in[u + l] + 2 * in[u + x] + in[u + r];

	s += 2 * in[m + l] + 4 * in[m + x] + 2 * in[m + r];
	s += in[d + l] + 2 * in[d + x] + in[d + r];
	out[m + x] = s * 0.0625f;
}
