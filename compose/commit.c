#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "diag.h"
#include "util.h"

int commit_stage(struct commit_file *f, const char *text, size_t len)
{
	f->staged = file_stage(f->to, text, len);
	if (!f->staged)
		return -1;
	f->old = file_keep_old(f->to, &f->had);
	return 0;
}

bool commit_files(struct commit_file *const *files, size_t n, bool failed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct commit_file *f = files[i];

		if (failed) {
			file_discard(f->staged);
		} else if (f->staged) {
			f->renamed = file_commit(f->staged, f->to) == 0 ? 1 : -1;
			f->err = errno;
			failed = f->renamed < 0;
		}
		f->staged = NULL;
	}
	for (i = n; i-- > 0;) {
		struct commit_file *f = files[i];

		if (failed && f->renamed > 0) {
			f->renamed = 0;
			if (file_restore_old(f->old, f->had, f->to) != 0)
				f->undo_err = errno;
			else
				f->old = NULL;
		} else {
			file_drop_old(f->old);
			f->old = NULL;
		}
	}
	return failed;
}

int commit_said(struct commit_file *f)
{
	int said = 0;

	if (f->renamed < 0) {
		diag_error(NULL, "cannot move '%s' into place: %s (the files moved before it are put back)",
			   f->to, strerror(f->err));
		said = 1;
	} else if (f->undo_err) {
		diag_error(NULL, "cannot put back what '%s' held: %s; it holds the new file%s%s%s",
			   f->to, strerror(f->undo_err), f->old ? ", the old one is '" : "",
			   f->old ? f->old : "", f->old ? "'" : "");
		said = 1;
	}
	free(f->old); /* a file not put back: its old one kept, named above */
	f->old = NULL;
	return said;
}
