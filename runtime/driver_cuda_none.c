/* Built without CUDA: no CUDA devices. */
#include "internal.h"

unsigned pph__cuda_start(void)
{
	return 0;
}

void pph__cuda_stop(void)
{
}

void pph__cuda_bind_thread(void *driver)
{
	(void)driver;
}
