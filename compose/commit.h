#ifndef COMPOSE_COMMIT_H
#define COMPOSE_COMMIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A commit of many files, all or none: each staged beside its place first
 * (commit_stage), then all renamed into place (commit_files), a rename
 * that fails putting back those renamed before it.  The generated tree
 * (emit.c) and the skeletons (skeleton.c) are written so.
 */
struct commit_file {
	const char *to;	/* its place: named before the renames, which allocate nothing */
	char *staged;	/* its temporary, until renamed into place */
	char *old;	/* what its place held, under a second name (file_keep_old) */
	int had;	/* its place held a file: 1, kept as old; 0: none; -1: not kept */
	int renamed;	/* 1: moved into place; -1: the rename failed, with errno err;
			 * 0 again when put back (undo_err: errno if that failed) */
	int err, undo_err;
};

/* text staged beside f->to, and what f->to holds kept under a second name:
 * 0, or -1 with errno set (nothing staged). */
int commit_stage(struct commit_file *f, const char *text, size_t len);

/* Rename files[0..n) into place in order (one with nothing staged is
 * skipped), or remove every temporary where failed.  A rename that fails
 * stops the others, and those renamed before it are put back; the second
 * names of the others are removed.  Nothing here allocates or prints
 * (between file_commit_begin and file_commit_end, a signal waits): say
 * what happened after, with commit_said.  Returns whether the commit
 * failed. */
bool commit_files(struct commit_file *const *files, size_t n, bool failed);

/* What the renames did to f that is an error, said: 1 if said, else 0.
 * Frees what f kept (a file not put back keeps its old one, named). */
int commit_said(struct commit_file *f);

#endif
