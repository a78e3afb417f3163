/* A type the interface's parameters use, included through @include. */
#ifndef TOTAL_TYPES_H
#define TOTAL_TYPES_H
typedef float real;
/* a count of a type compose cannot see through (as OpenBLAS's blasint) */
typedef int count;
#endif
