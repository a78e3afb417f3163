/*
 * PEPPHER-C and OpenCL variants.
 *
 * The contract for an OPENCL variant: it runs on the host thread of the
 * OpenCL worker the runtime chose.  In place of each pointer parameter it
 * receives the cl_mem of that data on the worker's device (the composed
 * backend wrapper passes PPH_VECTOR_PTR(buffers[i]) and friends, which are
 * cl_mem values on OpenCL workers); sizes are as on the host.  It enqueues
 * its kernels on pph_opencl_queue(); the runtime waits for the queue to
 * finish before the task counts as done, so the variant need not.  Kernels
 * come from pph_opencl_kernel(), which builds each program once per device
 * per process; on a build error it prints the build log and returns NULL.
 */
#ifndef PEPPHER_OPENCL_H
#define PEPPHER_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <peppher/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The device, context and queue of the calling OpenCL worker, or NULL
 *  when not called from an OpenCL variant. */
cl_device_id pph_opencl_device(void);
cl_context pph_opencl_context(void);
cl_command_queue pph_opencl_queue(void);

/**
 * The kernel named name of the program in the .cl file at path (relative
 * to the working directory), built for the calling worker's device the
 * first time and cached.  The runtime owns the kernel.  NULL on error
 * (file missing, build failure: the build log goes to stderr).
 */
cl_kernel pph_opencl_kernel(const char *path, const char *name);

/** The same, with the program's source text given directly. */
cl_kernel pph_opencl_kernel_source(const char *source, const char *name);

/** The cl_mem of buffer i on an OpenCL worker. */
#ifdef __cplusplus
#define PPH_OPENCL_MEM(buf) (static_cast<cl_mem>(PPH_VECTOR_PTR(buf)))
#else
#define PPH_OPENCL_MEM(buf) ((cl_mem)PPH_VECTOR_PTR(buf))
#endif

#ifdef __cplusplus
}
#endif

#endif
