/* Includes typed.h twice over: first through forward.h, then itself.
 * Only its own line names typed.h (the include guard skips it), and
 * compose should still say that typed.h declares the functions. */
#ifndef FORWARD_AGAIN_H
#define FORWARD_AGAIN_H
#include <forward.h>
#include <typed.h>
#endif
