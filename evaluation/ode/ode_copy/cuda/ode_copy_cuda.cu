/* dst = src in CUDA: a copy on the device. */
#include "../../ode_cuda.h"

void ode_copy_cuda(double *dst, const double *src, int n)
{
	cudaMemcpyAsync(dst, src, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice,
			pph_cuda_stream());
}
