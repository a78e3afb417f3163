/* makefile_nvcc.sh builds this with CPPFLAGS="... -Wp,-DVIA_WP=1,-DVIA_WP2=1":
 * the host compiler, which nvcc hands -Wp options to, must see both. */
#if defined(MAKEFILE_NVCC_TEST) && !(defined(VIA_WP) && defined(VIA_WP2))
#error "-Wp,-DVIA_WP=1,-DVIA_WP2=1 in CPPFLAGS did not reach the host compiler whole"
#endif

__global__ static void scale_kernel(float *x, int n, float a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] *= a;
}

void scale_cuda(float *x, int n, float a)
{
	const int threads = 256;

	if (n > 0)
		scale_kernel<<<(n + threads - 1) / threads, threads>>>(x, n, a);
}
