/* The direct version's own declarations: what main.c includes in place of
 * compose's peppher.h. */
#ifndef PEPPHER_H
#define PEPPHER_H

#include <string.h>
#include <peppher/runtime.h>
#include <peppher/wrappers.h>
#include <peppher/containers.h>

#define PEPPHER_INITIALIZE() PPH_INITIALIZE_OR_EXIT()
#define PEPPHER_SHUTDOWN() pph_shutdown()

void sgemm(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C);

#endif
