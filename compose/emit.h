/*
 * Code emission.  Every generated file is written into memory through
 * struct out; gen_commit() puts them into the output folder only after
 * every emitter succeeded, so a failed run changes nothing there.  A file
 * whose content is already there is left alone (its time too, so make
 * rebuilds only what changed); the others are written into a private
 * temporary folder first, then renamed into place.
 */
#ifndef COMPOSE_EMIT_H
#define COMPOSE_EMIT_H

#include <stdio.h>

#include "commit.h"
#include "ir.h"

/* Where generated text goes; lines are indented by indent units, a unit
 * being a tab, or the string unit when not NULL ("  " for XML). */
struct out {
	FILE *fp;
	int indent;
	const char *unit;
};

struct gen_file {
	char *name;
	char *path; /* outdir/name: made before the renames, which allocate nothing */
	char *text; /* open_memstream's buffer */
	size_t len;
	int changed; /* differs from what the output folder holds */
	struct commit_file c; /* to path */
};

struct gen {
	const struct model *m;
	const char *outdir;
	char *outdir_real; /* resolved once, for relative source paths */
	char *appdir, *appdir_real; /* the main descriptor's folder: lexically, resolved */
	int app_holds_output; /* the output folder is in appdir */
	const char *entry_ext; /* ".c", or ".cpp", ".cc", ".cxx": entry wrappers in C++ */
	int force;	   /* overwrite files compose did not write */
	const char *runtime_pc; /* the runtime's pkg-config package: NULL, "peppher" */
	size_t written;	   /* files moved into outdir */
	/* --graph's file (.to, .staged from emit_graph_stage()): renamed
	 * after the rest */
	struct commit_file graph;
	struct gen_file **files; /* in the order they were opened */
	size_t nfiles;
	unsigned errors;
};

/* Start generating into outdir, which gen_commit() creates if needed;
 * entry wrappers get entry_ext (".c", ".cpp", ".cc", ".cxx").
 * Returns 0 or -1 (reported). */
int gen_begin(struct gen *g, const struct model *m, const char *outdir,
	      const char *entry_ext);
/* Open name (in memory) and write the generated-file stamp,
 * comment opened by lead (C comment or "#").  Returns 0 or -1 (reported). */
int gen_open(struct gen *g, struct out *o, const char *name, const char *lead);
/* Close o; a write error is reported and counted. */
void gen_close(struct gen *g, struct out *o, const char *name);
/* Move every file into outdir when nothing failed and none would replace
 * something compose did not write (a file without the stamp, unless
 * g->force; a folder), and g->graph.staged to g->graph.to; always remove
 * the temporary files, and outdir when this run made it and wrote nothing.
 * Once the first file is renamed nothing allocates or prints until the
 * last one is: no failure but a rename's can stop them half way.
 * Returns 0 or -1. */
int gen_commit(struct gen *g, int dry_run);
/* path (a source, a header) as the generated files name it: relative to
 * the output folder when it is in it, or when both are in the main
 * descriptor's folder; absolute otherwise (the installed repository's). */
char *gen_path(const struct gen *g, const char *path);
/* Is path one of the files g writes into its output folder? */
int gen_is_output(const struct gen *g, const char *path);

/* Open o onto memory (open_memstream: out_close() sets *text and *len),
 * at indentation 0 in tabs.  Returns 0, or -1 with errno set. */
int out_open_memory(struct out *o, char **text, size_t *len);
/* Close o.  Returns 0, or -1 (errno set) when anything failed to write. */
int out_close(struct out *o);

/* One line at the current indentation. */
void out_line(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void out_blank(struct out *o);


/* "void fname(T1 a, T2 b)" with the interface's parameters; for_impl: as
 * implementations see them (a container becomes a pointer to elemType). */
char *c_signature(const struct iface *ifc, const char *fname, int for_impl);
/* (TYPE)EXPR, or static_cast<TYPE>(EXPR) in C++ (-Wold-style-cast). */
char *emit_cast(bool cxx, const char *type, const char *expr);
/* Is p (NULL: no) of an unsigned integer type: C++ converts a size_t to it
 * in a call, where a cast may be one to its own type (-Wuseless-cast). */
bool param_unsigned(const struct param *p);

/* File names of the artefacts, shared by the emitters that refer to them. */
char *backend_file_name(const struct impl *impl);
char *backend_header_name(const struct iface *ifc);
char *backend_header_guard(const struct iface *ifc);
char *entry_file_name(const struct gen *g, const struct iface *ifc);
/* The object file a source of impl compiles to. */
char *object_file_name(const struct impl *impl, const struct source_file *sf);
/* An OpenCL kernel file as C, made by the Makefile, and the string's name. */
char *kernel_c_file_name(const struct impl *impl);
char *kernel_symbol(const struct impl *impl);
/* The kernel file of a ComPU-style OpenCL implementation, or NULL. */
const struct source_file *impl_kernel(const struct impl *impl);

/* #include lines for the headers an interface's types need (@include). */
void emit_includes(struct gen *g, struct out *o, const struct iface *ifc);
/* The include line for ifc->includes[i]. */
void emit_include(struct gen *g, struct out *o, const struct iface *ifc, size_t i);

void emit_header(struct gen *g);
void emit_entry(struct gen *g, const struct iface *ifc);
void emit_backend_header(struct gen *g, const struct iface *ifc);
void emit_backend(struct gen *g, const struct impl *impl);
void emit_makefile(struct gen *g);
/* Does the file at path carry compose's stamp (or not exist)?  Reports
 * (and returns false) what compose must not replace unless forced. */
int gen_may_replace(const char *path, int force);

/* Write the composition graph next to path, for gen_commit() to rename
 * (struct gen's graph), so that an unwritable path fails before
 * anything else is written.  Returns the temporary file's name, or NULL
 * (reported). */
char *emit_graph_stage(const struct model *m, const char *path, int force);

#endif
