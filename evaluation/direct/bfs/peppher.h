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

void bfs(const int *starts, const int *degrees, const int *edges, int *mask, int *updating, int *visited, int *cost, int *next, int frontier, int n, int m);

#endif
