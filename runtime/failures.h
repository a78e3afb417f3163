/*
 * How failed component calls are said, the same in libpeppher and
 * libpeppher-starpu (runtime/failures.c is built into both).
 */
#ifndef PPH_FAILURES_H
#define PPH_FAILURES_H

/* The number of failed calls said one by one on stderr. */
#define PPH_FAILURES_SAID 20

/* Whether this failed call is said: the first PPH_FAILURES_SAID are; the
 * next one says that the others are counted only (a loop of failing calls
 * printed 60,001 lines, and PEPPHER_SHUTDOWN() says how many failed). */
int pph__failure_said(void);

/* Why a call failed with rc (a negative errno), in words: strerror's,
 * except where it would mislead (-E2BIG is "Argument list too long"). */
const char *pph__failure_reason(int rc);

struct pph_codelet;

/* 0 if cl can be submitted (a name, variants each with a function, a name
 * and a known architecture), else -EINVAL, said on stderr. */
int pph__codelet_check(const struct pph_codelet *cl);

#endif
