/* The library behind mix.h, needs_stdio.h and mixlib.h. */
#include <stdio.h>

#include "mix.h"
#include "needs_stdio.h"
#include "mixlib.h"

int mix_Scale(int x) { return 10 * x; }
int mix_scale(int x) { return 3 * x; }

int mix_stamp(char out[13], int t)
{
	return snprintf(out, 13, "T%011d", t);
}

int mix_sum(size_t n, const int *restrict v, long *restrict total)
{
	size_t i;

	for (i = 0; i < n && total; i++) /* total may be NULL: "none" */
		*total += v[i];
	return total ? (int)n : -1;
}

int mix_apply(int (*const f)(int), int x) { return f(x); }

static int inc(int x) { return x + 1; }
static int sq(int x) { return x * x; }

int (*mix_pick(int which))(int) { return which ? sq : inc; }
void mix_pick_into(int which, int (**out)(int)) { *out = mix_pick(which); }
void __mix_internal(void) {}
int mix_old() { return 0; }
int mix_add(int a, int b) { return a + b; } /* __mix_v2_add */
int mix_sub(int a, int b) { return a - b; }
int mix_half(int x) { return x / 2; }
int mix_inc(int x) { return x + 1; } /* the out-of-line copy of the inline one */

size_t nstd_put(FILE *out, const char *text) { return (size_t)fprintf(out, "[%s]\n", text); }

int mixlib_twice(int x) { return 2 * x; }
int mixlib_neg(int x) { return -x; }
