/*
 * A worker's stack (both runtimes).  A worker runs what the program's
 * thread would have run, so its stack is the program's: glibc gives a new
 * thread the stack limit (ulimit -s), but 2 MiB where it is unlimited,
 * which HPC programs set for their large automatic arrays: a library call
 * with 4 MiB of arrays on its stack, fine called directly, crashed on a
 * worker.  There a worker gets PPH_STACK_UNLIMITED (address space, not
 * memory, until used).  PEPPHER_STACKSIZE says otherwise, written as
 * OMP_STACKSIZE is.
 */
#ifndef PPH_WORKER_STACK_H
#define PPH_WORKER_STACK_H

#include <stddef.h>

#define PPH_STACK_MIN ((size_t)64 << 10)
#define PPH_STACK_UNLIMITED ((size_t)256 << 20)

/* PEPPHER_STACKSIZE into *bytes (0 where unset): 0, or -EINVAL with
 * pph__stack_usage() to say why */
int pph__stack_from_env(size_t *bytes);
const char *pph__stack_usage(void);

/* The stack a worker gets: asked (PEPPHER_STACKSIZE's), else
 * PPH_STACK_UNLIMITED where the program's stack is unlimited, else 0:
 * the thread defaults (the limit). */
size_t pph__stack_bytes(size_t asked);

#endif
