/*
 * Diagnostics in the compiler format `file:line: error: message`.  Errors
 * are counted so that a run reports all of them and then fails.
 */
#ifndef COMPOSE_DIAG_H
#define COMPOSE_DIAG_H

#include <stdio.h>

#include "ir.h"

#if defined(__GNUC__)
#define DIAG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DIAG_PRINTF(a, b)
#endif

/* loc may be NULL for diagnostics about the run itself. */
void diag_error(const struct loc *loc, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_warning(const struct loc *loc, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_note(const struct loc *loc, const char *fmt, ...) DIAG_PRINTF(2, 3);

/* Errors reported since the last diag_reset(). */
unsigned diag_error_count(void);

/* Send diagnostics to fp (stderr by default) and zero the count. */
void diag_reset(FILE *fp);

/* Verbosity for diag_verbose(): 0 silent (default) .. 3. */
void diag_set_verbosity(int level);
void diag_verbose(int level, const char *fmt, ...) DIAG_PRINTF(2, 3);

#endif
