/*
 * Signals on the runtime's threads (both runtimes).  A signal sent to the
 * process (kill, ctrl-C, alarm, a child's end) goes to any one of its
 * threads that does not block it.  A program that blocks one to take it
 * with sigwait or a signalfd (a server's clean shutdown on SIGTERM) blocks
 * it on its own threads, and the runtime's idle workers took it instead:
 * 10 of 10 SIGTERMs sent 10 ms apart ran the program's handler on a
 * worker, or ended the program where it had none.  So the threads the
 * runtime starts (its workers, and what StarPU, MPI and the device drivers
 * start meanwhile) block the signals that come from outside a thread, as
 * the program's threads were the only ones to take them before it
 * composed.  They keep those a thread's own code raises (a fault, a trap's
 * SIGFPE, SIGPIPE from a write, SIGXFSZ, abort's SIGABRT), which must stop
 * or reach that thread, and the profiling timers' (SIGPROF, SIGVTALRM): a
 * profiler samples the thread that runs.
 */
#ifndef PPH_THREAD_SIGNALS_H
#define PPH_THREAD_SIGNALS_H

#include <signal.h>

/* Block the signals from outside on this thread, its old mask into *old:
 * the threads it starts until pph__signals_restore inherit the mask. */
void pph__signals_hold(sigset_t *old);
void pph__signals_restore(const sigset_t *old);

#endif
