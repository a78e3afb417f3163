/* Built when StarPU or this build has no OpenCL. */
#include "internal.h"

void sp__opencl_free(void)
{
}
