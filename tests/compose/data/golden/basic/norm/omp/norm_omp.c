#include <stddef.h>
void norm_omp(const double *x, size_t len, double *result) { double s = 0; for (size_t i = 0; i < len; i++) s += x[i] * x[i]; *result = s; }
