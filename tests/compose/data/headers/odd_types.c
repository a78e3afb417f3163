/* The library behind odd_types.h. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "odd_types.h"

double odd_rows(int n, double m[][3])
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += m[i][0] * 100 + m[i][1] * 10 + m[i][2];
	return s;
}

void odd_scale(int n, int m, double a[n][m], double s)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			a[i][j] *= s * (i + 1);
}

double odd_blocks(int n, const double b[][2][2])
{
	double det = 0;
	int i;

	for (i = 0; i < n; i++)
		det += b[i][0][0] * b[i][1][1] - b[i][0][1] * b[i][1][0];
	return det;
}

int odd_sum_blocks(const odd_block in[], int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += in[i][0] + in[i][3];
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

int odd_visit(odd_visit_fn *f, int x)
{
	return f(x) + f(x + 1);
}

int odd_event_length(odd_event *e)
{
	e->data.scalar.length = (int)strlen(e->data.scalar.value);
	return e->data.scalar.length;
}

int odd_names_length(const odd_names *n)
{
	return (int)(strlen(n->names[0]) + strlen(n->names[1]));
}

void odd_push(double *p, int n, const double *u, int rows, int cols)
{
	for (int i = 0; i < n; i++)
		p[i] += u[i % (rows * cols)];
}

__typeof__(int) odd_typeof_sum(const __typeof__(float) *x, int n)
{
	float s = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	return (int)s;
}

void odd_atomic_add(_Atomic int *c, int n)
{
	*c += n;
}

int odd_id_cmp(const odd_id a, const odd_id b)
{
	return memcmp(a, b, sizeof(odd_id));
}

void odd_id_copy(odd_id dst, const odd_id src)
{
	memcpy(dst, src, sizeof(odd_id));
}

double odd_first(int n, const odd_row *r)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += r[i][0];
	return s;
}

static odd_report report;

odd_report odd_set_report(odd_report r)
{
	odd_report old = report;

	report = r;
	return old;
}

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap);
	va_end(ap);
}

int odd_say(int n)
{
	if (report)
		say("%d and %s", n, "more");
	return report != NULL;
}

int odd_vcount(const char *fmt, va_list ap)
{
	int n = 0;

	(void)ap;
	for (; *fmt; fmt++)
		n += *fmt == '%';
	return n;
}

double odd_wmean(const double *w, size_t wstride, const double *data, size_t stride, size_t n)
{
	double s = 0, ws = 0;

	for (size_t i = 0; i < n; i++) {
		s += w[i * wstride] * data[i * stride];
		ws += w[i * wstride];
	}
	return n ? s / ws : 0;
}

void odd_swap(double *data1, size_t stride1, double *data2, size_t stride2, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double t = data1[i * stride1];

		data1[i * stride1] = data2[i * stride2];
		data2[i * stride2] = t;
	}
}

double odd_trace(const odd_mat m)
{
	return m[0][0] + m[1][1] + m[1][2] * 10;
}

void odd_fill(unsigned char *pixels, int stride, int width, int height)
{
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			pixels[y * stride + x] = (unsigned char)(x + 10 * y);
}

int odd_seal(unsigned char *c, const unsigned char *m, unsigned long long mlen,
	     const unsigned char *n, const unsigned char *k)
{
	for (unsigned long long i = 0; i < mlen; i++)
		c[i] = (unsigned char)(m[i] ^ n[i % 4] ^ k[i % 2]);
	return 0;
}

size_t odd_dump(const odd_record *r, char *buffer, size_t size)
{
	return (size_t)snprintf(buffer, size, "%d:%g", r->id, r->value);
}

void odd_apply(double *x, int n, odd_each_fn fn, void *user)
{
	for (int i = 0; i < n; i++)
		fn(&x[i], user);
}

void odd_reverse(void *base, size_t nmemb, size_t size)
{
	unsigned char *b = base, t;

	for (size_t i = 0; i < nmemb / 2; i++)
		for (size_t j = 0; j < size; j++) {
			t = b[i * size + j];
			b[i * size + j] = b[(nmemb - 1 - i) * size + j];
			b[(nmemb - 1 - i) * size + j] = t;
		}
}

const void *odd_find(const void *key, const void *base, size_t nmemb, size_t size)
{
	for (size_t i = 0; i < nmemb; i++)
		if (memcmp((const unsigned char *)base + i * size, key, size) == 0)
			return (const unsigned char *)base + i * size;
	return NULL;
}

struct odd_ctx {
	int depth;
};

odd_ctx_t odd_ctx_new(int depth)
{
	odd_ctx_t c = malloc(sizeof(*c));

	if (c)
		c->depth = depth;
	return c;
}

int odd_ctx_depth(odd_ctx_t __restrict ctx)
{
	return ctx->depth;
}

void odd_ctx_free(odd_ctx_t restrict ctx)
{
	free(ctx);
}
