#include <stdarg.h>
#include <stdio.h>

#include "diag.h"

static FILE *diag_fp;
static unsigned nerrors;
static int verbosity;

static void report(const struct loc *loc, const char *kind, const char *fmt,
		   va_list ap)
{
	FILE *fp = diag_fp ? diag_fp : stderr;

	if (loc && loc->file && loc->line > 0)
		fprintf(fp, "%s:%d: %s: ", loc->file, loc->line, kind);
	else if (loc && loc->file)
		fprintf(fp, "%s: %s: ", loc->file, kind);
	else
		fprintf(fp, "compose: %s: ", kind);
	vfprintf(fp, fmt, ap);
	fputc('\n', fp);
}

void diag_error(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	nerrors++;
	va_start(ap, fmt);
	report(loc, "error", fmt, ap);
	va_end(ap);
}

void diag_warning(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(loc, "warning", fmt, ap);
	va_end(ap);
}

void diag_note(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(loc, "note", fmt, ap);
	va_end(ap);
}

unsigned diag_error_count(void)
{
	return nerrors;
}

void diag_reset(FILE *fp)
{
	diag_fp = fp;
	nerrors = 0;
}

void diag_set_verbosity(int level)
{
	verbosity = level;
}

void diag_verbose(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > verbosity)
		return;
	va_start(ap, fmt);
	fputs("compose: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
