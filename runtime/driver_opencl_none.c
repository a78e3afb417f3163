/* Built without OpenCL: no OpenCL devices. */
#include "internal.h"

unsigned pph__opencl_start(int conf_max)
{
	(void)conf_max;
	return 0;
}

void pph__opencl_stop(void)
{
}

void pph__opencl_bind_thread(void *driver)
{
	(void)driver;
}
