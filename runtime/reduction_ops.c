/*
 * The built-in reduction operators (pph_reduction_builtin): sum, min and
 * max of each C arithmetic type.  Pure functions of the public API, the
 * same in libpeppher and libpeppher-starpu.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>

#include <peppher/runtime.h>

#define PPH_REDUX_OPS(T, NAME, LOWEST, HIGHEST)                                          \
	static void sum_init_##NAME(void *e) { *(T *)e = (T)0; }                          \
	static void sum_##NAME(void *into, const void *from)                              \
	{                                                                                 \
		*(T *)into = (T)(*(T *)into + *(const T *)from);                          \
	}                                                                                 \
	static void min_init_##NAME(void *e) { *(T *)e = HIGHEST; }                       \
	static void min_##NAME(void *into, const void *from)                              \
	{                                                                                 \
		if (*(const T *)from < *(T *)into)                                        \
			*(T *)into = *(const T *)from;                                    \
	}                                                                                 \
	static void max_init_##NAME(void *e) { *(T *)e = LOWEST; }                        \
	static void max_##NAME(void *into, const void *from)                              \
	{                                                                                 \
		if (*(const T *)from > *(T *)into)                                        \
			*(T *)into = *(const T *)from;                                    \
	}

PPH_REDUX_OPS(char, char, CHAR_MIN, CHAR_MAX)
PPH_REDUX_OPS(signed char, schar, SCHAR_MIN, SCHAR_MAX)
PPH_REDUX_OPS(unsigned char, uchar, 0, UCHAR_MAX)
PPH_REDUX_OPS(short, short, SHRT_MIN, SHRT_MAX)
PPH_REDUX_OPS(unsigned short, ushort, 0, USHRT_MAX)
PPH_REDUX_OPS(int, int, INT_MIN, INT_MAX)
PPH_REDUX_OPS(unsigned, uint, 0, UINT_MAX)
PPH_REDUX_OPS(long, long, LONG_MIN, LONG_MAX)
PPH_REDUX_OPS(unsigned long, ulong, 0, ULONG_MAX)
PPH_REDUX_OPS(long long, llong, LLONG_MIN, LLONG_MAX)
PPH_REDUX_OPS(unsigned long long, ullong, 0, ULLONG_MAX)
PPH_REDUX_OPS(float, float, -INFINITY, INFINITY)
PPH_REDUX_OPS(double, double, -INFINITY, INFINITY)

#define PPH_REDUX_ROW(NAME)                                                               \
	{ { sum_init_##NAME, sum_##NAME },                                                \
	  { min_init_##NAME, min_##NAME },                                                \
	  { max_init_##NAME, max_##NAME } }

/* [type][op], in the order of enum pph_elem_type and enum pph_reduction_op */
static const struct pph_reduction builtin[PPH_TYPE_COUNT][3] = {
	PPH_REDUX_ROW(char),   PPH_REDUX_ROW(schar), PPH_REDUX_ROW(uchar),
	PPH_REDUX_ROW(short),  PPH_REDUX_ROW(ushort), PPH_REDUX_ROW(int),
	PPH_REDUX_ROW(uint),   PPH_REDUX_ROW(long),	 PPH_REDUX_ROW(ulong),
	PPH_REDUX_ROW(llong),  PPH_REDUX_ROW(ullong), PPH_REDUX_ROW(float),
	PPH_REDUX_ROW(double),
};

const struct pph_reduction *pph_reduction_builtin(enum pph_reduction_op op,
						  enum pph_elem_type type)
{
	if ((unsigned)op > PPH_REDUCTION_MAX || (unsigned)type >= PPH_TYPE_COUNT)
		return NULL;
	return &builtin[type][op];
}
