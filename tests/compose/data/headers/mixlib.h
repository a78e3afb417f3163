/* An umbrella header, as lzma.h and z3.h: it declares nothing itself; its
 * own headers, included with quotes, refuse to be included alone. */
#ifndef MIXLIB_H
#define MIXLIB_H
#define MIXLIB_INTERNAL 1
#include <stddef.h>
#include "mixlib/twice.h"
#include "mixlib/neg.h"
#undef MIXLIB_INTERNAL
#endif
