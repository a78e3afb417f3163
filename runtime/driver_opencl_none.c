/* Built without OpenCL: no OpenCL devices. */
#include "internal.h"

unsigned pph__opencl_start(void)
{
	return 0;
}

void pph__opencl_stop(void)
{
}

void pph__opencl_bind_thread(void *driver)
{
	(void)driver;
}
