/* A C23 header: attributes in double brackets, which gcc takes in C too,
 * and clang only as C2x (as C11 it fails, and parses as C++). */
#ifndef C23_H
#define C23_H
#include <stddef.h>
[[nodiscard]] int c23_sum(const int *v, size_t n);
[[deprecated("use c23_sum")]] int c23_total(const int *v, size_t n);
#endif
