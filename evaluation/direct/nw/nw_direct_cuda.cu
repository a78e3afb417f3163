/* nw's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

struct nw_args {
	int diag;
	int penalty;
};

void nw_cuda(int *, const int *, int, int, int);

extern "C" void nw_cuda_task(void *b[], void *arg)
{
	struct nw_args *a = (struct nw_args *)arg;

	nw_cuda((int *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_MATRIX_PTR(b[1]),
		(int)PPH_MATRIX_ROWS(b[0]), a->diag, a->penalty);
}
