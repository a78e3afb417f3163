#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraint.h"
#include "diag.h"
#include "util.h"

/* Deeper nesting than any constraint needs; the parser recurses once per
 * level, and so do the walks over the tree. */
#define MAX_DEPTH 100
/* A chain "a + a + ..." makes a tree as deep as it is long. */
#define MAX_NODES 1000

struct parser {
	const char *what; /* "constraint", or "numElements of 'x'" */
	const char *text, *p;
	const struct loc *loc;
	int failed;
	int depth; /* parentheses and unary operators open around ps->p */
	int nodes;
};

/* Enter one more level; 0 (reported) when that is too deep. */
static int descend(struct parser *ps)
{
	if (++ps->depth <= MAX_DEPTH)
		return 1;
	if (!ps->failed++)
		diag_error(ps->loc, "%s nested deeper than %d levels (parentheses and unary operators) at column %d", ps->what,
			   MAX_DEPTH, (int)(ps->p - ps->text) + 1);
	return 0;
}

static void syntax_error(struct parser *ps, const char *what)
{
	if (ps->failed++)
		return; /* the first error is the one that explains */
	if (*ps->p)
		diag_error(ps->loc, "%s \"%s\": %s at column %d ('%.8s')", ps->what, ps->text, what,
			   (int)(ps->p - ps->text) + 1, ps->p);
	else
		diag_error(ps->loc, "%s \"%s\": %s at the end", ps->what, ps->text, what);
}

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* Consume tok if it comes next (and is not the start of a longer one). */
static int accept(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(ps);
	if (strncmp(ps->p, tok, n) != 0)
		return 0;
	/* "<" must not take the first half of "<=", "!" of "!=" */
	if (n == 1 && strchr("<>!=", tok[0]) && ps->p[1] == '=')
		return 0;
	ps->p += n;
	return 1;
}

/* Consume the word w (C++'s "and", "or", "not") if it comes next, whole. */
static int accept_word(struct parser *ps, const char *w)
{
	size_t n = strlen(w);

	skip_space(ps);
	if (strncmp(ps->p, w, n) != 0 || isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_')
		return 0;
	ps->p += n;
	return 1;
}

static struct cexpr *node(struct parser *ps, enum cx_op op, struct cexpr *a, struct cexpr *b)
{
	struct cexpr *e = xcalloc(1, sizeof(*e));

	if (++ps->nodes == MAX_NODES && !ps->failed++)
		diag_error(ps->loc, "%s has more than %d operators and operands", ps->what,
			   MAX_NODES);

	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

static struct cexpr *parse_expr(struct parser *ps);

/* XPDL's names (ComPU's constraints) for our platform facts. */
static const char *const xpdl_names[][2] = {
	{ "xpdl::system::num_of_gpus", "num_cuda_devices" },
	{ "xpdl::machine::num_gpus", "num_cuda_devices" },
	{ "xpdl::system::num_of_cores", "num_cores" },
	{ "xpdl::machine::num_cores", "num_cores" },
	{ "xpdl::system::num_of_pus", "num_pus" },
	{ "xpdl::system::num_of_opencl_devices", "num_opencl_devices" },
};
#define XPDL_INSTALLED "xpdl::is_installed{xpdl::system::libraries,"

/* xpdl_cublas_5_0 -> has_lib_cublas: the library, its version left out
 * (the version is not checked). */
static char *xpdl_library_fact(const char *lib, size_t len)
{
	if (len > 5 && strncmp(lib, "xpdl_", 5) == 0) {
		lib += 5;
		len -= 5;
	}
	/* drop a trailing version, "_5_0" */
	while (len > 1 && (isdigit((unsigned char)lib[len - 1]) || lib[len - 1] == '_') &&
	       memchr(lib, '_', len))
		len--;
	return xasprintf("has_lib_%.*s", (int)len, lib);
}

/*
 * A qualified XPDL name, ps->p just past its first identifier (at "::"):
 * xpdl::system::num_of_gpus, or
 * xpdl::is_installed{xpdl::system::libraries,xpdl_cublas_5_0}::value.
 * Returns the platform fact it stands for.
 */
static char *parse_xpdl(struct parser *ps, const char *start)
{
	struct strbuf b = { NULL, 0, 0 };
	char *fact = NULL;
	size_t i;

	while (ps->p[0] == ':' && ps->p[1] == ':') {
		ps->p += 2;
		while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
			ps->p++;
		if (*ps->p == '{') {
			while (*ps->p && *ps->p != '}')
				ps->p++;
			if (*ps->p == '}')
				ps->p++;
		}
	}
	for (; start < ps->p; start++) /* spaces inside the braces do not count */
		if (!isspace((unsigned char)*start))
			strbuf_append(&b, "%c", *start);
	for (i = 0; i < sizeof(xpdl_names) / sizeof(xpdl_names[0]); i++)
		if (strcmp(b.s, xpdl_names[i][0]) == 0)
			fact = xstrdup(xpdl_names[i][1]);
	if (!fact && strncmp(b.s, XPDL_INSTALLED, strlen(XPDL_INSTALLED)) == 0) {
		const char *lib = b.s + strlen(XPDL_INSTALLED), *end = strstr(lib, "}::value");

		if (end && end[strlen("}::value")] == '\0' && end > lib)
			fact = xpdl_library_fact(lib, (size_t)(end - lib));
	}
	if (!fact && !ps->failed++) {
		struct strbuf known = { NULL, 0, 0 };

		for (i = 0; i < sizeof(xpdl_names) / sizeof(xpdl_names[0]); i++)
			strbuf_append(&known, "%s, ", xpdl_names[i][0]);
		diag_error(ps->loc, "%s \"%s\": unknown XPDL name '%s' (known: %s%sLIB}::value)",
			   ps->what, ps->text, b.s, known.s, XPDL_INSTALLED);
		free(known.s);
	}
	if (!fact)
		fact = xstrdup("false");
	free(b.s);
	return fact;
}

static struct cexpr *parse_primary(struct parser *ps)
{
	struct cexpr *e;

	skip_space(ps);
	if (accept(ps, "(")) {
		e = descend(ps) ? parse_expr(ps) : node(ps, CX_NUM, NULL, NULL);
		ps->depth--;
		if (!accept(ps, ")"))
			syntax_error(ps, "expected ')'");
		return e;
	}
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) {
		const char *start = ps->p;
		char *end;

		e = node(ps, CX_NUM, NULL, NULL);
		e->num = strtod(ps->p, &end);
		e->int_literal = !memchr(start, '.', (size_t)(end - start)) &&
				 !memchr(start, 'e', (size_t)(end - start)) &&
				 !memchr(start, 'E', (size_t)(end - start));
		ps->p = end;
		/* C has no literal for infinity: "1e999" would become "inf" */
		if (!isfinite(e->num) && !ps->failed++)
			diag_error(ps->loc, "%s \"%s\": number '%.*s' is too large", ps->what, ps->text,
				   (int)(end - start), start);
		return e;
	}
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
		const char *start = ps->p;

		while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
			ps->p++;
		if (ps->p - start == 3 && strncmp(start, "abs", 3) == 0 && accept(ps, "(")) {
			/* abs(x): BLAS's negative increments span as positive ones */
			e = node(ps, CX_ABS, descend(ps) ? parse_expr(ps) : node(ps, CX_NUM, NULL, NULL),
				 NULL);
			ps->depth--;
			if (!accept(ps, ")"))
				syntax_error(ps, "expected ')'");
			return e;
		}
		e = node(ps, CX_NAME, NULL, NULL);
		if (ps->p[0] == ':' && ps->p[1] == ':')
			e->name = parse_xpdl(ps, start);
		else
			e->name = xasprintf("%.*s", (int)(ps->p - start), start);
		return e;
	}
	syntax_error(ps, *ps->p ? "expected a number, a name or '('" : "expected a value");
	return node(ps, CX_NUM, NULL, NULL);
}

static struct cexpr *parse_unary(struct parser *ps)
{
	struct cexpr *e;

	if (accept(ps, "!") || accept_word(ps, "not"))
		e = node(ps, CX_NOT, descend(ps) ? parse_unary(ps) : node(ps, CX_NUM, NULL, NULL), NULL);
	else if (accept(ps, "-"))
		e = node(ps, CX_NEG, descend(ps) ? parse_unary(ps) : node(ps, CX_NUM, NULL, NULL), NULL);
	else if (accept(ps, "+"))
		e = descend(ps) ? parse_unary(ps) : node(ps, CX_NUM, NULL, NULL);
	else
		return parse_primary(ps);
	ps->depth--;
	return e;
}

static struct cexpr *parse_product(struct parser *ps)
{
	struct cexpr *e = parse_unary(ps);

	while (!ps->failed) {
		if (accept(ps, "*"))
			e = node(ps, CX_MUL, e, parse_unary(ps));
		else if (accept(ps, "/"))
			e = node(ps, CX_DIV, e, parse_unary(ps));
		else if (accept(ps, "%"))
			e = node(ps, CX_MOD, e, parse_unary(ps));
		else
			break;
	}
	return e;
}

static struct cexpr *parse_sum(struct parser *ps)
{
	struct cexpr *e = parse_product(ps);

	while (!ps->failed) {
		if (accept(ps, "+"))
			e = node(ps, CX_ADD, e, parse_product(ps));
		else if (accept(ps, "-"))
			e = node(ps, CX_SUB, e, parse_product(ps));
		else
			break;
	}
	return e;
}

static struct cexpr *parse_compare(struct parser *ps)
{
	static const struct { const char *tok; enum cx_op op; } ops[] = {
		{ "<=", CX_LE }, { ">=", CX_GE }, { "==", CX_EQ }, { "!=", CX_NE },
		{ "<", CX_LT }, { ">", CX_GT },
	};
	struct cexpr *e = parse_sum(ps);
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (accept(ps, ops[i].tok))
			return node(ps, ops[i].op, e, parse_sum(ps));
	return e;
}

static struct cexpr *parse_and(struct parser *ps)
{
	struct cexpr *e = parse_compare(ps);

	while (!ps->failed && (accept(ps, "&&") || accept_word(ps, "and")))
		e = node(ps, CX_AND, e, parse_compare(ps));
	return e;
}

static struct cexpr *parse_or(struct parser *ps)
{
	struct cexpr *e = parse_and(ps);

	while (!ps->failed && (accept(ps, "||") || accept_word(ps, "or")))
		e = node(ps, CX_OR, e, parse_and(ps));
	return e;
}

/* or [ "?" expr ":" conditional ], as C's (ComPU's constraints are C++) */
static struct cexpr *parse_expr(struct parser *ps)
{
	struct cexpr *e = parse_or(ps), *c;

	if (ps->failed || !accept(ps, "?"))
		return e;
	if (!descend(ps))
		return e;
	c = node(ps, CX_COND, e, parse_expr(ps));
	if (!ps->failed && !accept(ps, ":"))
		syntax_error(ps, "expected ':'");
	c->c = ps->failed ? NULL : parse_expr(ps);
	ps->depth--;
	return c;
}

struct cexpr *cexpr_parse(const char *text, const struct loc *loc)
{
	return cexpr_parse_as(text, loc, "constraint");
}

struct cexpr *cexpr_parse_as(const char *text, const struct loc *loc, const char *what)
{
	struct parser ps = { what, text, text, loc, 0, 0, 0 };
	struct cexpr *e;

	skip_space(&ps);
	if (!*ps.p) {
		diag_error(loc, "empty %s", what);
		return NULL;
	}
	e = parse_expr(&ps);
	skip_space(&ps);
	if (*ps.p)
		syntax_error(&ps, "unexpected text");
	if (ps.failed) {
		cexpr_free(e);
		return NULL;
	}
	return e;
}

void cexpr_type(struct cexpr *e, bool (*integral)(void *ctx, const char *name), void *ctx)
{
	if (!e)
		return;
	cexpr_type(e->a, integral, ctx);
	cexpr_type(e->b, integral, ctx);
	cexpr_type(e->c, integral, ctx);
	switch (e->op) {
	case CX_NUM: e->integral = e->int_literal; break;
	case CX_NAME: e->integral = integral(ctx, e->name); break;
	case CX_NEG:
	case CX_ABS: e->integral = e->a->integral; break;
	case CX_ADD:
	case CX_SUB:
	case CX_MUL:
	case CX_DIV:
	case CX_MOD: e->integral = e->a->integral && e->b->integral; break;
	case CX_COND: e->integral = e->b->integral && e->c->integral; break;
	default: e->integral = true; /* comparisons and logic: 0 or 1 */
	}
}

void cexpr_free(struct cexpr *e)
{
	if (!e)
		return;
	cexpr_free(e->a);
	cexpr_free(e->b);
	cexpr_free(e->c);
	free(e->name);
	free(e);
}

int cexpr_names(const struct cexpr *e, int (*fn)(void *ctx, const char *name), void *ctx)
{
	int rc;

	if (!e)
		return 0;
	if (e->op == CX_NAME)
		return fn(ctx, e->name);
	rc = cexpr_names(e->a, fn, ctx);
	if (!rc)
		rc = cexpr_names(e->b, fn, ctx);
	return rc ? rc : cexpr_names(e->c, fn, ctx);
}

/*
 * C's integer division truncates toward zero.  (double)(long long)q is
 * undefined beyond long long's range (9223372036854775807 * 4 / 3 came
 * out negative); a double that large, or of 2^52 and more, is an integer
 * already.  No libm (trunc) where it is used.
 */
static double truncate_quotient(double q)
{
	return q > -4503599627370496.0 && q < 4503599627370496.0 ? (double)(long long)q : q;
}

static double eval(const struct cexpr *e, double (*value)(void *ctx, const char *name),
		   void *ctx, const char **fault)
{
	double a, b, r;

	switch (e->op) {
	case CX_NUM: return e->num;
	case CX_NAME: return value(ctx, e->name);
	case CX_NEG: return -eval(e->a, value, ctx, fault);
	case CX_ABS: return fabs(eval(e->a, value, ctx, fault));
	case CX_NOT: return eval(e->a, value, ctx, fault) == 0;
	case CX_AND: return eval(e->a, value, ctx, fault) != 0 && eval(e->b, value, ctx, fault) != 0;
	case CX_OR: return eval(e->a, value, ctx, fault) != 0 || eval(e->b, value, ctx, fault) != 0;
	case CX_COND:
		return eval(e->a, value, ctx, fault) != 0 ? eval(e->b, value, ctx, fault) :
							    eval(e->c, value, ctx, fault);
	default: break;
	}
	a = eval(e->a, value, ctx, fault);
	b = eval(e->b, value, ctx, fault);
	if ((e->op == CX_DIV || e->op == CX_MOD) && b == 0) {
		if (!*fault)
			*fault = "a division by zero";
		return NAN;
	}
	switch (e->op) {
	case CX_ADD: r = a + b; break;
	case CX_SUB: r = a - b; break;
	case CX_MUL: r = a * b; break;
	case CX_DIV:
		r = e->a->integral && e->b->integral ? truncate_quotient(a / b) : a / b;
		break;
	case CX_MOD: /* C's fmod, without libm */
		r = a - b * truncate_quotient(a / b);
		break;
	case CX_LT: return a < b;
	case CX_LE: return a <= b;
	case CX_GT: return a > b;
	case CX_GE: return a >= b;
	case CX_EQ: return a == b;
	case CX_NE: return a != b;
	default: return 0;
	}
	/* beyond a double's range: infinity, and then infinity less
	 * infinity, or zero times it, is no number */
	if (r != r && a == a && b == b && !*fault)
		*fault = "no number (an infinity less an infinity, or times zero)";
	return r;
}

double cexpr_eval(const struct cexpr *e, double (*value)(void *ctx, const char *name),
		  void *ctx, const char **fault)
{
	*fault = NULL;
	return eval(e, value, ctx, fault);
}

/* a / b truncated toward zero, as C, for a and b of integral values
 * (truncate_quotient in C: no libm in the generated code either) */
static char *truncated_c(const char *a, const char *b, bool cxx)
{
	char *t = cxx ? xasprintf("static_cast<double>(static_cast<long long>(%s / %s))", a, b) :
			xasprintf("(double)(long long)(%s / %s)", a, b);
	char *out = xasprintf("((%s / %s) > -4503599627370496.0 && (%s / %s) < 4503599627370496.0 ? %s : (%s / %s))",
			      a, b, a, b, t, a, b);

	free(t);
	return out;
}

char *cexpr_to_c(const struct cexpr *e, char *(*name_c)(void *ctx, const char *name),
		 void *ctx, bool cxx)
{
	static const char *const ops[] = {
		[CX_ADD] = "+", [CX_SUB] = "-", [CX_MUL] = "*", [CX_DIV] = "/",
		[CX_LT] = "<", [CX_LE] = "<=", [CX_GT] = ">", [CX_GE] = ">=",
		[CX_EQ] = "==", [CX_NE] = "!=", [CX_AND] = "&&", [CX_OR] = "||",
	};
	char *a, *b, *q, *out;

	switch (e->op) {
	case CX_NUM:
		out = xasprintf("%.17g", e->num);
		if (!strpbrk(out, ".eEni")) { /* a double literal: 1/2 is 0.5 */
			a = xasprintf("%s.0", out);
			free(out);
			out = a;
		}
		return out;
	case CX_NAME: return name_c(ctx, e->name);
	case CX_COND:
		a = cexpr_to_c(e->a, name_c, ctx, cxx);
		b = cexpr_to_c(e->b, name_c, ctx, cxx);
		{
			char *c = cexpr_to_c(e->c, name_c, ctx, cxx);

			out = xasprintf("(%s ? %s : %s)", a, b, c);
			free(c);
		}
		free(a);
		free(b);
		return out;
	case CX_MOD: /* as cexpr_eval: no libm where it is used */
		a = cexpr_to_c(e->a, name_c, ctx, cxx);
		b = cexpr_to_c(e->b, name_c, ctx, cxx);
		q = truncated_c(a, b, cxx);
		out = xasprintf("(%s != 0 ? %s - %s * %s : __builtin_nan(\"\"))", b, a, b, q);
		free(q);
		free(a);
		free(b);
		return out;
	case CX_ABS: /* no <math.h> needed where it is used */
		a = cexpr_to_c(e->a, name_c, ctx, cxx);
		out = xasprintf("((%s) < 0 ? -(%s) : (%s))", a, a, a);
		free(a);
		return out;
	case CX_NEG:
	case CX_NOT:
		a = cexpr_to_c(e->a, name_c, ctx, cxx);
		out = xasprintf("(%s%s)", e->op == CX_NEG ? "-" : "!", a);
		free(a);
		return out;
	case CX_DIV:
		if (e->a->integral && e->b->integral) { /* C's, toward zero */
			a = cexpr_to_c(e->a, name_c, ctx, cxx);
			b = cexpr_to_c(e->b, name_c, ctx, cxx);
			q = truncated_c(a, b, cxx);
			out = xasprintf("(%s != 0 ? %s : __builtin_nan(\"\"))", b, q);
			free(q);
			free(a);
			free(b);
			return out;
		}
		/* a double's */
		__attribute__((fallthrough));
	default:
		a = cexpr_to_c(e->a, name_c, ctx, cxx);
		b = cexpr_to_c(e->b, name_c, ctx, cxx);
		out = xasprintf("(%s %s %s)", a, ops[e->op], b);
		free(a);
		free(b);
		return out;
	}
}
