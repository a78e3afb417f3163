/*
 * A library header written the ways real ones are, each of which once made
 * compose --generate-comp-files write a tree that did not compose:
 * names that differ only in case (bzlib.h's BZ2_bzRead and BZ2_bzread), an
 * array parameter (png.h), restrict pointers and glibc's reserved
 * parameter names (<dirent.h>, <pthread.h>), a const function pointer
 * (ncurses' form.h), functions that return a function pointer or write one
 * (openssl's evp.h), a reserved function name (glibc's __assert_fail), a
 * declaration without a prototype (old headers), functions declared under
 * another name than the one programs write (gmp.h: "#define mpz_add
 * __gmpz_add", "#define mpn_add __MPN(add)"), a macro that writes a
 * whole declaration, and a function defined inline (gmp.h's extern
 * inline mpz_get_ui).
 */
#ifndef MIX_H
#define MIX_H

#include <stddef.h>

int mix_Scale(int x);
int mix_scale(int x);
/* writes a 12-character stamp and its terminating zero */
int mix_stamp(char out[13], int t);
int mix_sum(size_t __n, const int *__restrict __v, long *__restrict __total);
int mix_apply(int (*const f)(int), int x);
int (*mix_pick(int which))(int);
void mix_pick_into(int which, int (**out)(int));
void __mix_internal(void);
int mix_old();
#define MIX_NAME(x) __mix_v2_##x
#define mix_add __mix_v2_add
int mix_add(int a, int b);
#define mix_sub MIX_NAME(sub)
int mix_sub(int a, int b);
#define MIX_DECLARE_HALF int mix_half(int x)
MIX_DECLARE_HALF;
/* declared, then defined inline (gmp.h's mpz_get_ui) */
int mix_inc(int x);
extern __inline__ __attribute__((__gnu_inline__)) int mix_inc(int x) { return x + 1; }

#endif
