#!/bin/sh
# examples/cholesky (a matrix tiled in place, calls on tiles, the
# repository's tile kernels) composed with --runtime=starpu-mpi on 1, 2 and
# 4 ranks: correct on every rank (the example checks the factor against
# the matrix, as on libpeppher: tests/examples/cholesky.sh); with more than
# one rank every rank ran tasks on the tiles it owns (2-D block-cyclic) and
# tiles moved between ranks.  A grid that does not fit the ranks is refused.
set -u
out="$top_builddir/tests/out/starpu-mpi/cholesky"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"

build starpu-mpi "$out" "$top_srcdir/examples/cholesky/main.xml" -R "$top_srcdir/repository"
for np in 1 2 4; do
	for nb in "384 48" "160 32"; do
		set -- $nb
		run_mpi "$out" $np cholesky "$1" "$2"
		r=0
		while [ $r -lt $np ]; do
			grep -q "^cholesky n $1 b $2: residual .*: correct$" "$out/np$np/$r.log" ||
				{ cat "$out/np$np/$r.log"; fail "cholesky $1 $2: rank $r of $np: wrong result"; }
			r=$((r + 1))
		done
		distributed "$out" $np
		echo "$np ranks: $(grep -h residual "$out/np$np/0.log"), tasks per rank: $(cat "$out/np$np"/[0-9]*.log |
			sed -n 's/^rank \([0-9]*\) of .*: \([0-9]*\) tasks ran here, \([0-9]*\) bytes.*/\1:\2 (\3 B sent)/p' | sort | tr '\n' ' ')"
	done
done
# the grid by hand: 1 x 4 (tiles of a row on 4 ranks) is also correct
PEPPHER_MPI_GRID=1x4 run_mpi "$out" 4 cholesky 160 32
grep -q ": correct$" "$out/np4/3.log" || { cat "$out/np4/3.log"; fail "cholesky on a 1x4 grid"; }
distributed "$out" 4
# a grid of another size stops the program with the reason
PEPPHER_MPI_GRID=3x3 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none -np 2 \
	"$out/starpu-mpi/cholesky" 160 32 > "$out/badgrid.log" 2>&1 && fail "PEPPHER_MPI_GRID=3x3 on 2 ranks accepted"
grep -q "PEPPHER_MPI_GRID=3x3: expected PxQ with P\*Q = 2 ranks" "$out/badgrid.log" ||
	{ cat "$out/badgrid.log"; fail "no clear error for PEPPHER_MPI_GRID=3x3"; }
echo "PASS: cholesky on StarPU-MPI"
