/*
 * Variants that run on the thread that made the call
 * (PPH_IMPL_CALLER_THREAD, runtime.h), in both runtimes: a library that
 * keeps state per thread (TurboJPEG's last error for tjGetErrorStr2(NULL),
 * OpenSSL's error queue, an interpreter's thread state) records it where
 * it ran, and the program reads it on its own thread: tjexample printed
 * "No error" for a missing input file when tjLoadImage ran on a worker.
 */
#ifndef PPH_CALLER_THREAD_H
#define PPH_CALLER_THREAD_H

#include <peppher/runtime.h>

/* The variants of cl that run on their caller's thread only, as a mask
 * over the first 32 (a task's mask's). */
static inline unsigned pph__caller_variants(const struct pph_codelet *cl)
{
	unsigned i, m = 0;

	for (i = 0; cl->impls && i < cl->nimpls && i < 32; i++)
		if (cl->impls[i].flags & PPH_IMPL_CALLER_THREAD)
			m |= 1u << i;
	return m;
}

/* A mask's bits for the variants of cl: all of them past the 32nd. */
static inline unsigned pph__all_variants(const struct pph_codelet *cl)
{
	return cl->nimpls >= 32 ? ~0u : (1u << cl->nimpls) - 1;
}

#endif
