/* <peppher/cuda.h> where StarPU has no CUDA: no CUDA worker ever runs a
 * CUDA variant, and a variant asking for its stream gets the default. */
#include <peppher/cuda.h>

cudaStream_t pph_cuda_stream(void)
{
	return 0;
}
