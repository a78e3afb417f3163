/*
 * The arguments of pph_call_partitioned, read the same way by libpeppher
 * and libpeppher-starpu (runtime/split_args.c is built into both).
 */
#ifndef PPH_SPLIT_ARGS_H
#define PPH_SPLIT_ARGS_H

#include <peppher/runtime.h>

/* The block count the partitioned buffers share (0: one per worker, which
 * each runtime counts), -1 where none is partitioned, or -EINVAL where
 * they differ. */
int pph__split_parts(unsigned nbuffers, const int *parts);

/*
 * A handle given to several partitioned buffers (dot(r, r)) is partitioned
 * once: first[i] is the first such buffer, whose blocks buffer i gets too
 * (i itself where the handle comes first).  0 where a handle is given
 * both partitioned and whole, which cannot be: its blocks hold the data
 * while it is partitioned; else 1.
 */
int pph__split_shared(unsigned nbuffers, const pph_data_handle *handles, const int *parts,
		      unsigned *first);

#endif
