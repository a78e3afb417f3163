/*
 * The floating-point environment a task's variant runs in (both runtimes).
 * Rounding mode and enabled traps are per thread: a variant run on a
 * worker ran to nearest, traps off, whatever its caller had set, so a
 * program under feenableexcept(FE_DIVBYZERO) divided by zero in a
 * component without the SIGFPE it gets called directly, and one under
 * fesetround(FE_UPWARD) got other bits.  So a task takes its submitter's
 * rounding and traps (pph_fpenv_get, at its submission), the thread that
 * runs it sets them around the variant (pph_fpenv_enter, pph_fpenv_leave),
 * and the exception flags the variant raised go back to a synchronous
 * call's caller (pph_fpenv_raise).  Only on CPU workers: a device
 * variant's host code launches kernels, and a thread a driver starts
 * meanwhile inherits the traps of the thread that starts it (with traps on
 * from the program's start, the evaluation's cfd trapped inside PoCL's
 * compiled flux kernel, whose threads had inherited them).  Not FE_INEXACT: nearly every variant
 * raises it, and clearing a flag costs 80 ns (glibc saves and loads the
 * x87 environment); the runtime's own arithmetic raises it on the
 * caller's thread anyway.
 */
#ifndef PPH_FPENV_H
#define PPH_FPENV_H

#include <fenv.h>

#define PPH_FP_CARRIED (FE_ALL_EXCEPT & ~FE_INEXACT)

struct pph_fpenv {
	int round;	 /* fegetround() of the submitter */
	int traps;	 /* the exceptions it traps (glibc's fegetexcept) */
	int raised;	 /* PPH_FP_CARRIED flags the variant raised */
	fexcept_t flags; /* their state, for fesetexceptflag */
};

/* What a thread had around a variant it ran for a task. */
struct pph_fpenv_saved {
	int round, traps, had;
	fexcept_t had_flags;
};

static inline int pph_fpenv_traps(void)
{
#ifdef __GLIBC__
	return fegetexcept();
#else
	return 0;
#endif
}

static inline void pph_fpenv_set_traps(int traps)
{
#ifdef __GLIBC__
	fedisableexcept(FE_ALL_EXCEPT & ~traps);
	feenableexcept(traps);
#else
	(void)traps;
#endif
}

/* The submitting thread's rounding and traps, into the task's e. */
static inline void pph_fpenv_get(struct pph_fpenv *e)
{
	e->round = fegetround();
	e->traps = pph_fpenv_traps();
	e->raised = 0;
}

/* Before the variant: e's rounding and traps on this thread, and none of
 * the carried flags raised (this thread's kept in s).  Flags are cleared
 * before traps are enabled: a raised flag whose trap is enabled traps at
 * the next x87 instruction. */
static inline void pph_fpenv_enter(const struct pph_fpenv *e, struct pph_fpenv_saved *s)
{
	s->had = fetestexcept(PPH_FP_CARRIED);
	if (s->had) {
		fegetexceptflag(&s->had_flags, s->had);
		feclearexcept(s->had);
	}
	s->round = fegetround();
	if (s->round != e->round)
		fesetround(e->round);
	s->traps = pph_fpenv_traps();
	if (s->traps != e->traps)
		pph_fpenv_set_traps(e->traps);
}

/* After it: the flags it raised into e, this thread's environment back. */
static inline void pph_fpenv_leave(struct pph_fpenv *e, const struct pph_fpenv_saved *s)
{
	int raised = fetestexcept(PPH_FP_CARRIED);

	if (raised) {
		fegetexceptflag(&e->flags, raised);
		e->raised = raised;
		feclearexcept(raised);
	}
	if (s->traps != e->traps)
		pph_fpenv_set_traps(s->traps);
	if (s->round != e->round)
		fesetround(s->round);
	if (s->had)
		fesetexceptflag(&s->had_flags, s->had);
}

/* On the caller's thread, at a synchronous call's return: the flags its
 * variant raised, raised here too; set, not trapped, and not those whose
 * trap is enabled here (the variant trapped on them): an x87 flag set with
 * its trap enabled traps at the next x87 instruction, in the runtime. */
static inline void pph_fpenv_raise(const struct pph_fpenv *e)
{
	int raised = e->raised ? e->raised & ~pph_fpenv_traps() : 0;

	if (raised)
		fesetexceptflag(&e->flags, raised);
}

#endif
