/*
 * The floating-point environment across component calls
 * (tests/runtime/suite_wrappers.c and tests/starpu/test_starpu.c, the same
 * test for both runtimes; runtime/fpenv.h says why).  The variant must see
 * its caller's rounding mode and enabled traps wherever it runs, a division
 * by zero in it must trap when the caller enabled that trap, the flags it
 * raises (not FE_INEXACT) must be raised on a synchronous call's caller,
 * and a flag the caller had raised must stay raised.
 */
#ifndef TESTS_CALL_FPENV_H
#define TESTS_CALL_FPENV_H

#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define FPENV_CALLS 20

static _Thread_local sigjmp_buf fpenv_jump;
static volatile double fpenv_zero = 0.0;

static void fpenv_on_sigfpe(int sig)
{
	(void)sig;
	siglongjmp(fpenv_jump, 1);
}

struct fpenv_arg {
	int round, traps; /* what the variant should find */
	int divide;	  /* then divide by zero */
};

/* The variant writes what it found into its vector's first two ints:
 * whether the environment was wrong, whether the division trapped. */
static void fpenv_variant(void *buffers[], void *arg)
{
	const struct fpenv_arg *a = (const struct fpenv_arg *)arg;
	int *out = (int *)PPH_VECTOR_PTR(buffers[0]);
	volatile double x;

	out[0] = fegetround() != a->round || fegetexcept() != a->traps;
	out[1] = 0;
	if (!a->divide)
		return;
	if (sigsetjmp(fpenv_jump, 1) == 0)
		x = 1.0 / fpenv_zero;
	else
		out[1] = 1;
	(void)x;
}

static const struct pph_impl fpenv_impls[] = {
	{ PPH_ARCH_CPU, fpenv_variant, "fpenv_cpu", 0 },
};
static const struct pph_codelet fpenv_cl = { "call_fpenv", 1, fpenv_impls, PPH_MODEL_DEFAULT };

/* One call; the variant's findings in out once it returns. */
static int fpenv_call(pph_data_handle h, int round, int traps, int divide)
{
	struct fpenv_arg a = { round, traps, divide };
	enum pph_access mode = PPH_W;
	int rc = pph_call_sync(&fpenv_cl, PPH_ALL_IMPLS, 1, &h, &mode, &a, sizeof(a));

	return rc ? rc : pph_data_acquire(h, PPH_R);
}

/* 0, or the number of failed checks, said on stderr */
static int call_fpenv(void)
{
	struct sigaction sa, old;
	int out[2] = { 0, 0 }, i, wrong = 0;
	pph_data_handle h;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fpenv_on_sigfpe;
	sigaction(SIGFPE, &sa, &old);
	if (pph_vector_register(&h, out, 2, sizeof(int)) != 0)
		return -1;
	for (i = 0; i < FPENV_CALLS; i++) {
		int round = i % 2 ? FE_UPWARD : FE_DOWNWARD;

		/* the rounding, and a division's flag back */
		fesetround(round);
		feclearexcept(FE_ALL_EXCEPT);
		if (fpenv_call(h, round, 0, 1) != 0 || out[0] || out[1]) {
			fprintf(stderr, "call_fpenv: call %d: rounding %s, trapped %d\n", i,
				out[0] ? "not the caller's" : "the caller's", out[1]);
			wrong++;
		}
		if (!fetestexcept(FE_DIVBYZERO)) {
			fprintf(stderr, "call_fpenv: call %d: FE_DIVBYZERO not raised on the caller\n", i);
			wrong++;
		}
		/* a flag raised before stays raised */
		fesetround(FE_TONEAREST);
		feclearexcept(FE_ALL_EXCEPT);
		feraiseexcept(FE_OVERFLOW);
		if (fpenv_call(h, FE_TONEAREST, 0, 0) != 0 || out[0] ||
		    !fetestexcept(FE_OVERFLOW) || fetestexcept(FE_DIVBYZERO)) {
			fprintf(stderr, "call_fpenv: call %d: the caller's FE_OVERFLOW lost, or another raised\n",
				i);
			wrong++;
		}
		/* the trap the caller enabled */
		feclearexcept(FE_ALL_EXCEPT);
		feenableexcept(FE_DIVBYZERO);
		if (fpenv_call(h, FE_TONEAREST, FE_DIVBYZERO, 1) != 0 || out[0] || !out[1]) {
			fprintf(stderr, "call_fpenv: call %d: traps %s, the division %s\n", i,
				out[0] ? "not the caller's" : "the caller's",
				out[1] ? "trapped" : "did not trap");
			wrong++;
		}
		fedisableexcept(FE_ALL_EXCEPT);
		feclearexcept(FE_ALL_EXCEPT);
	}
	fesetround(FE_TONEAREST);
	pph_data_unregister(h);
	sigaction(SIGFPE, &old, NULL);
	return wrong;
}

#endif
