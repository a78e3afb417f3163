/* Part of typed.h, included once per type: see there. */
#ifndef TYPED_H
# error "Never include <typed/calls.h> directly; include <typed.h> instead."
#endif
TYPED_CALL(half);
TYPED_CALL(twice);
