/* The library behind odd_types.h. */
#include <string.h>

#include "odd_types.h"

double odd_rows(int n, double m[][3])
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += m[i][0] * 100 + m[i][1] * 10 + m[i][2];
	return s;
}

int odd_each(int (*f)(const unsigned char (*)[4], int), int x)
{
	static const unsigned char rows[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };

	return f(rows, x);
}

int odd_bind(const char *s, odd_binding_list b, int *n)
{
	*n = 0;
	for (; *s; s++)
		if (*s == '.' || *s == '*')
			b[(*n)++] = *s == '.' ? ODD_TIGHT : ODD_LOOSE;
	return *n;
}

static odd_handler current;

odd_handler odd_set(odd_handler h)
{
	odd_handler old = current;

	current = h;
	return old;
}

int odd_exit_with(void (*leave)(void) __attribute__((noreturn)), int now)
{
	if (now)
		leave();
	return 7;
}
