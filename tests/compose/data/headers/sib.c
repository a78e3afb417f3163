/* The library behind sib.h. */
#include "sib.h"

int sib_version(void)
{
	return 3;
}

int sib_add(const sib_ctx *c, int x)
{
	return c->base + x;
}

int sib_twice(const sib_ctx *c)
{
	return 2 * c->base;
}

int sib_alone_square(int x)
{
	return x * x;
}
