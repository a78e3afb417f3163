/* Built without CUDA: no CUDA devices. */
#include <stdlib.h>

#include "internal.h"

unsigned pph__cuda_start(int conf_max)
{
	(void)conf_max;
	return 0;
}

void pph__cuda_stop(void)
{
}

void pph__cuda_bind_thread(void *driver)
{
	(void)driver;
}

void *pph__host_alloc(size_t bytes, int *pinned)
{
	*pinned = 0;
	return calloc(1, bytes ? bytes : 1);
}

void pph__host_free(void *p, int pinned)
{
	(void)pinned;
	free(p);
}
