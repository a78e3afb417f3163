/* Signals on the runtime's threads: see thread_signals.h. */
#include <pthread.h>

#include "thread_signals.h"

/* what a thread's own code raises, or a profiler's timer */
static const int kept[] = { SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGTRAP,  SIGSYS,
			    SIGABRT, SIGPIPE, SIGXFSZ, SIGPROF, SIGVTALRM };

void pph__signals_hold(sigset_t *old)
{
	sigset_t from_outside;
	unsigned i;

	/* glibc leaves the signals it uses itself (thread cancellation,
	 * setuid across threads) out of any mask */
	sigfillset(&from_outside);
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		sigdelset(&from_outside, kept[i]);
	pthread_sigmask(SIG_BLOCK, &from_outside, old);
}

void pph__signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}
