#ifndef MIXLIB_INTERNAL
#error "include <mixlib.h> instead"
#endif
int mixlib_twice(int x);
