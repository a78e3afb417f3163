/*
 * PEPPHER-C and CUDA variants.
 *
 * A CUDA variant runs on the host thread of the CUDA worker the runtime
 * chose, with that worker's device current.  Each pointer parameter is the
 * data's device pointer; sizes are as on the host.  It may launch kernels on
 * the default stream or on pph_cuda_stream(); the runtime synchronizes the
 * device before the task counts as done.
 */
#ifndef PEPPHER_CUDA_H
#define PEPPHER_CUDA_H

#include <cuda_runtime_api.h>

#include <peppher/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The calling CUDA worker's stream, or 0 outside a CUDA variant. */
cudaStream_t pph_cuda_stream(void);

#ifdef __cplusplus
}
#endif

#endif
