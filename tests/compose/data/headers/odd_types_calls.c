/* Calls every function odd_types.h declares; prints what they return. */
#include <stdio.h>
#include <stdlib.h>

#include "odd_types.h"
#ifndef DIRECT
#include "peppher.h"
#endif

static int sum_row(const unsigned char (*rows)[4], int x)
{
	return rows[x][0] + rows[x][1] + rows[x][2] + rows[x][3];
}

static void report(const char *fmt, va_list ap)
{
	printf("report: ");
	vprintf(fmt, ap);
	printf("\n");
}

static int square(int x)
{
	return x * x;
}

static __attribute__((noreturn)) void fail(const char *why)
{
	printf("failed: %s\n", why);
	exit(1);
}

static __attribute__((noreturn)) void never(void)
{
	exit(2);
}

static void odd_add_user(double *x, void *user)
{
	*x += *(const double *)user;
}

int main(void)
{
#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	double m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
	odd_binding b[8];
	int n = 0;

	double a[3][4], blk[2][2][2] = { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 9 } } };

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			a[i][j] = i * 4 + j;
	printf("rows %g\n", odd_rows(2, m));
	odd_scale(3, 4, a, 0.5);
	for (int i = 0; i < 3; i++)
		printf("scaled %g %g %g %g\n", a[i][0], a[i][1], a[i][2], a[i][3]);
	printf("blocks %g\n", odd_blocks(2, blk));
	{
		const odd_block in[3] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } };

		printf("sum_blocks %d\n", odd_sum_blocks(in, 3));
	}
	printf("each %d %d\n", odd_each(sum_row, 0), odd_each(sum_row, 1));
	printf("bind %d:", odd_bind("a.b*c.d", b, &n));
	for (int i = 0; i < n; i++)
		printf(" %d", (int)b[i]);
	printf("\n");
	printf("set %d %d\n", odd_set(fail) == NULL, odd_set(NULL) == fail);
	printf("exit_with %d\n", odd_exit_with(never, 0));
	printf("visit %d\n", odd_visit(square, 3));
	{
		odd_event e = { 1, { { "scalar", 0 } } };
		odd_names names = { { "ab", "cde" } };

		printf("event %d %d\n", odd_event_length(&e), e.data.scalar.length);
		printf("names %d\n", odd_names_length(&names));
	}
	{
		double p[5] = { 0 }, u[6] = { 1, 2, 3, 4, 5, 6 };

		odd_push(p, 5, u, 2, 3);
		printf("push %g %g\n", p[0], p[4]);
	}
	{
		const float x[4] = { 1, 2, 3, 4.5f };
		_Atomic int c = 1;

		printf("typeof_sum %d\n", odd_typeof_sum(x, 4));
		odd_atomic_add(&c, 2); /* the library's own: left out */
		printf("atomic_add %d\n", (int)c);
	}
	{
		/* const data in read-only memory: read, never written back */
		static const odd_id key = { 1, 2, 3, 4 };
		static const odd_row rows[2] = { { 1, 2, 3 }, { 4, 5, 6 } };
		odd_id id;

		odd_id_copy(id, key);
		printf("id %d %d %d\n", id[3], odd_id_cmp(id, key), odd_id_cmp(key, (odd_id){ 1, 2, 3, 5 }) < 0);
		printf("first %g\n", odd_first(2, rows));
		printf("trace %g\n", odd_trace(rows));
	}
	printf("set_report %d\n", odd_set_report(report) == NULL);
	printf("say %d\n", odd_say(7));
	{
		double v[12], w[12];

		for (int i = 0; i < 12; i++) {
			v[i] = i * 1.5;
			w[i] = 1 + i % 4;
		}
		printf("wmean %g %g\n", odd_wmean(w, 3, v, 2, 4), odd_wmean(w, 1, v, 5, 0));
		unsigned char px[3][4] = { { 0 } };

		odd_fill(&px[0][0], 4, 4, 3);
		printf("fill %d %d\n", px[1][2], px[2][3]);
		odd_swap(v, 3, v + 1, 2, 4);
		for (int i = 0; i < 12; i++)
			printf(" %g", v[i]);
		printf("\n");
	}
	{
		const unsigned char m[6] = { 1, 2, 3, 4, 5, 6 }, n[4] = { 9, 8, 7, 6 }, k[2] = { 3, 5 };
		unsigned char c[6] = { 0 };
		const odd_record r = { 42, 2.5 };
		char buffer[16] = "";

		printf("seal %d", odd_seal(c, m, 6, n, k));
		for (int i = 0; i < 6; i++)
			printf(" %d", c[i]);
		printf("\ndump %zu %s\n", odd_dump(&r, buffer, sizeof(buffer)), buffer);
	}
	{
		double x[4] = { 1, 2, 3, 4 }, add = 0.5;
		int r[5] = { 1, 2, 3, 4, 5 };

		odd_apply(x, 4, odd_add_user, &add);
		odd_reverse(r, 5, sizeof(int));
		printf("apply %g %g reverse %d %d %d\n", x[0], x[3], r[0], r[2], r[4]);
		const int key = 2, *at = odd_find(&key, r, 5, sizeof(int));

		printf("find %td\n", at ? at - r : -1);
	}
	{
		odd_ctx_t c = odd_ctx_new(7);

		printf("ctx %d\n", c ? odd_ctx_depth(c) : -1);
		odd_ctx_free(c);
	}
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
