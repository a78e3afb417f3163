/* bfs's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

void bfs_cuda(const int *, const int *, const int *, int *, int *, int *, int *, int *, int, int,
	      int);

extern "C" void bfs_cuda_task(void *b[], void *arg)
{
	bfs_cuda((const int *)PPH_VECTOR_PTR(b[0]), (const int *)PPH_VECTOR_PTR(b[1]),
		 (const int *)PPH_VECTOR_PTR(b[2]), (int *)PPH_VECTOR_PTR(b[3]),
		 (int *)PPH_VECTOR_PTR(b[4]), (int *)PPH_VECTOR_PTR(b[5]),
		 (int *)PPH_VECTOR_PTR(b[6]), (int *)PPH_VARIABLE_PTR(b[7]), *(int *)arg,
		 (int)PPH_VECTOR_N(b[0]), (int)PPH_VECTOR_N(b[2]));
}
