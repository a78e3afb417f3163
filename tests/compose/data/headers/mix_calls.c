/*
 * The calls of mix.h, needs_stdio.h and mixlib.h: built once as a plain
 * program (-DDIRECT) and once in the tree compose made from the headers,
 * where each call goes through PEPPHER.  Both print the same lines: calls
 * before PEPPHER_INITIALIZE() and after PEPPHER_SHUTDOWN() are the
 * library's own.
 */
#include <stdio.h>

#include "mix.h"
#include "needs_stdio.h"
#include "mixlib.h"

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

int main(void)
{
	int v[5] = { 4, 8, 15, 16, 23 }, (*f)(int) = NULL;
	char stamp[13];
	long total = 42;
	int n;

	printf("before init: sum %d twice %d\n", mix_sum(5, v, &total), mixlib_twice(4));
	PEPPHER_INITIALIZE();
	printf("Scale %d scale %d\n", mix_Scale(7), mix_scale(7));
	printf("stamp %d %s\n", mix_stamp(stamp, 1234), stamp);
	n = mix_sum(5, v, &total);
	printf("sum %d total %ld\n", n, total);
	printf("sum without a total %d\n", mix_sum(5, v, NULL)); /* a NULL pointer: none */
	/* mixlib_neg is a component too: called inside mix_apply's variant */
	printf("apply %d\n", mix_apply(mixlib_neg, 5));
	printf("pick %d %d\n", mix_pick(0)(6), mix_pick(1)(6));
	mix_pick_into(1, &f);
	printf("pick into %d\n", f(9));
	nstd_put(stdout, "put");
	printf("twice %d neg %d\n", mixlib_twice(21), mixlib_neg(21));
	printf("add %d sub %d half %d inc %d\n", mix_add(40, 2), mix_sub(40, 2), mix_half(40), mix_inc(41));
	PEPPHER_SHUTDOWN();
	printf("after shutdown: neg %d sum %d\n", mixlib_neg(3), mix_sum(5, v, &total));
	return 0;
}
