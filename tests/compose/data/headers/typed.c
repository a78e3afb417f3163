/* The library behind typed.h. */
#include <typed.h>

static int calls;

double half(double x) { calls++; return x / 2; }
double twice(double x) { calls++; return 2 * x; }
float halff(float x) { calls++; return x / 2; }
float twicef(float x) { calls++; return 2 * x; }
double __half(double x) { return half(x); }
double __twice(double x) { return twice(x); }
float __halff(float x) { return halff(x); }
float __twicef(float x) { return twicef(x); }
int typed_count(void) { return calls; }
int typed_code(int n) { calls++; return 10 * n; } /* typed_code_v2 */
int typed_code_v1(int n) __asm__("typed_code");
int typed_code_v1(int n) { return -n; }
