/* An umbrella header: no function of its own; its headers beside it are
 * its own, the one that parses alone too (cholmod.h's SuiteSparse_config.h) */
#ifndef SIBS_H
#define SIBS_H
typedef int sibs_int;
#include "sibs_core.h"
#include "sibs_util.h"
#endif
