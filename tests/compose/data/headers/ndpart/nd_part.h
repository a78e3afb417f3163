/* A header of needs_include.h's own folder, found only with -I. */
typedef unsigned char nd_byte;
