/* Written as glibc's math.h is: the header declares no function itself.
 * Its part <typed/calls.h>, which refuses to be included alone, declares
 * each function once, through a macro that also declares a reserved
 * alias, and typed.h includes it once per type (half, halff, ...); a
 * header in a folder named bits (<typed/bits/count.h>) is a part too. */
#ifndef TYPED_H
#define TYPED_H
#define TYPED_CAT_(a, b) a##b
#define TYPED_CAT(a, b) TYPED_CAT_(a, b)
#define TYPED_CALL(name)                                                   \
	extern TYPED_T TYPED_CAT(name, TYPED_SUFFIX)(TYPED_T x);           \
	extern TYPED_T TYPED_CAT(__##name, TYPED_SUFFIX)(TYPED_T x)

#define TYPED_T double
#define TYPED_SUFFIX
#include <typed/calls.h>
#undef TYPED_T
#undef TYPED_SUFFIX

#define TYPED_T float
#define TYPED_SUFFIX f
#include <typed/calls.h>
#undef TYPED_T
#undef TYPED_SUFFIX

#include <typed/bits/count.h>
#endif
