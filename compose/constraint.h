/*
 * The constraint expression language of implementation descriptors
 * (<peppher:constraint expr="..." type="static|dynamic"/>):
 *
 *   expr    := or [ "?" expr ":" expr ]
 *   or      := and { ("||" | "or") and }
 *   and     := compare { ("&&" | "and") compare }
 *   compare := sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/" | "%") unary }
 *   unary   := ("!" | "not" | "-" | "+") unary | primary
 *   primary := NUMBER | NAME | "abs" "(" expr ")" | "(" expr ")"
 *
 * Values are doubles; comparisons and logic give 0 or 1, and any non-zero
 * value is true.  Names are the interface's by-value parameters and the
 * runtime's resources (dynamic constraints) or the platform's facts (static
 * constraints); true and false are 1 and 0.
 */
#ifndef COMPOSE_CONSTRAINT_H
#define COMPOSE_CONSTRAINT_H

#include <stdbool.h>

#include "ir.h"

enum cx_op {
	CX_NUM, CX_NAME, CX_NEG, CX_NOT, CX_ABS,
	CX_ADD, CX_SUB, CX_MUL, CX_DIV, CX_MOD, CX_COND,
	CX_LT, CX_LE, CX_GT, CX_GE, CX_EQ, CX_NE, CX_AND, CX_OR,
};

struct cexpr {
	enum cx_op op;
	bool integral;	   /* of C integer type (cexpr_type): "/" truncates */
	bool int_literal;  /* CX_NUM written without '.' or an exponent */
	double num;	   /* CX_NUM */
	char *name;	   /* CX_NAME */
	struct cexpr *a, *b, *c; /* operands (c: CX_COND's else) */
};

/* Parse text; syntax errors are reported at loc, with the column.
 * Returns NULL after an error. */
struct cexpr *cexpr_parse(const char *text, const struct loc *loc);
/* The same, the diagnostics naming what the text is ("numElements of 'x'"). */
struct cexpr *cexpr_parse_as(const char *text, const struct loc *loc, const char *what);
void cexpr_free(struct cexpr *e);

/* Type e as C would: a literal without '.' or exponent, a name for which
 * integral(ctx, name) holds, and what integers make are integers, so that
 * "n / 2" truncates as in C (ComPU's constraints are C++).  Untyped, every
 * name is a double. */
void cexpr_type(struct cexpr *e, bool (*integral)(void *ctx, const char *name), void *ctx);

/* Call fn(ctx, name) for every name in e, in order; stops at the first
 * non-zero return and gives it back. */
int cexpr_names(const struct cexpr *e, int (*fn)(void *ctx, const char *name), void *ctx);

/* The value of e, each name's value given by value(ctx, name), in double
 * precision: a / b of integers truncates toward zero, of any size.  *fault
 * is NULL, or why the value is none ("a division by zero"). */
double cexpr_eval(const struct cexpr *e, double (*value)(void *ctx, const char *name),
		  void *ctx, const char **fault);

/* e as a C expression of type double, each name written as
 * name_c(ctx, name) gives it (a fresh string); cxx: its casts as C++
 * writes them (static_cast), for C++ code built with -Wold-style-cast. */
char *cexpr_to_c(const struct cexpr *e, char *(*name_c)(void *ctx, const char *name),
		 void *ctx, bool cxx);

#endif
