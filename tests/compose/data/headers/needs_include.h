/*
 * A header that needs a folder of its own headers on the include path, as
 * libxml2's do, with enough functions of its types that clang, which
 * cannot see them without it, stops with "too many errors".
 */
#include <nd_part.h>

nd_byte nd_get1(const nd_byte *p);
nd_byte nd_get2(const nd_byte *p);
nd_byte nd_get3(const nd_byte *p);
nd_byte nd_get4(const nd_byte *p);
nd_byte nd_get5(const nd_byte *p);
nd_byte nd_get6(const nd_byte *p);
nd_byte nd_get7(const nd_byte *p);
nd_byte nd_get8(const nd_byte *p);
nd_byte nd_get9(const nd_byte *p);
nd_byte nd_get10(const nd_byte *p);
nd_byte nd_get11(const nd_byte *p);
nd_byte nd_get12(const nd_byte *p);
nd_byte nd_get13(const nd_byte *p);
nd_byte nd_get14(const nd_byte *p);
nd_byte nd_get15(const nd_byte *p);
nd_byte nd_get16(const nd_byte *p);
nd_byte nd_get17(const nd_byte *p);
nd_byte nd_get18(const nd_byte *p);
nd_byte nd_get19(const nd_byte *p);
nd_byte nd_get20(const nd_byte *p);
nd_byte nd_get21(const nd_byte *p);
nd_byte nd_get22(const nd_byte *p);
nd_byte nd_get23(const nd_byte *p);
nd_byte nd_get24(const nd_byte *p);
