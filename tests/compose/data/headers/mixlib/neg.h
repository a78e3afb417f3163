#ifndef MIXLIB_INTERNAL
#error "include <mixlib.h> instead"
#endif
int mixlib_neg(int x);
