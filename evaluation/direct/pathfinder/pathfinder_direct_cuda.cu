/* pathfinder's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

struct pathfinder_args {
	int row0;
	int height;
};

void pathfinder_cuda(const int *, const int *, int *, int, int, int, int);

extern "C" void pathfinder_cuda_task(void *b[], void *arg)
{
	struct pathfinder_args *a = (struct pathfinder_args *)arg;

	pathfinder_cuda((const int *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_VECTOR_PTR(b[1]),
			(int *)PPH_VECTOR_PTR(b[2]), (int)PPH_MATRIX_ROWS(b[0]),
			(int)PPH_MATRIX_COLS(b[0]), a->row0, a->height);
}
