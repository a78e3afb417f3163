#!/bin/sh
# examples/cholesky (a matrix tiled in place, calls on tiles, the
# repository's tile kernels) composed with --runtime=starpu-mpi on 1, 2 and
# 4 ranks: correct on every rank (the example checks the factor against
# the matrix, as on libpeppher: tests/examples/cholesky.sh); with more than
# one rank every rank ran tasks on the tiles it owns (2-D block-cyclic), and
# the bytes each rank sent during the factorization are those the model of
# doc/distributed.md counts (bench/cholesky_comm.awk).  A grid that does not
# fit the ranks is refused.
set -u
out="$top_builddir/tests/out/starpu-mpi/cholesky"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"

build starpu-mpi "$out" "$top_srcdir/examples/cholesky/main.xml" -R "$top_srcdir/repository"
# as_model NP P Q N B: each rank sent what the model says
as_model() {
	set -- $(awk -v nt=$(($4 / $5)) -v b=$5 -v P=$2 -v Q=$3 -f "$top_srcdir/bench/cholesky_comm.awk")
	[ $# -eq $np ] || fail "the model gave $# figures for $np ranks"
	r=0
	for expect in "$@"; do
		grep -q "^rank $r of .*: $expect bytes sent to other ranks when pph_task_wait_all returned$" "$out/np$np/$r.log" ||
			{ grep "bytes sent" "$out/np$np/$r.log"; fail "rank $r of $np: expected $expect bytes sent in the factorization"; }
		r=$((r + 1))
	done
}
for np in 1 2 4; do
	case $np in
	1) grid="1 1" ;; 2) grid="1 2" ;; 4) grid="2 2" ;;
	esac
	for nb in "384 48" "160 32"; do
		set -- $nb
		n=$1 b=$2
		run_mpi "$out" $np cholesky $n $b
		r=0
		while [ $r -lt $np ]; do
			grep -q "^cholesky n $n b $b: residual .*: correct$" "$out/np$np/$r.log" ||
				{ cat "$out/np$np/$r.log"; fail "cholesky $n $b: rank $r of $np: wrong result"; }
			r=$((r + 1))
		done
		distributed "$out" $np
		as_model $np $grid $n $b
		echo "$np ranks: $(grep -h residual "$out/np$np/0.log"), tasks per rank: $(cat "$out/np$np"/[0-9]*.log |
			sed -n 's/^rank \([0-9]*\) of .*: \([0-9]*\) tasks ran here, \([0-9]*\) bytes.*/\1:\2 (\3 B sent)/p' | sort | tr '\n' ' ')"
	done
done
# the grid by hand: 1 x 4 (tiles of a row on 4 ranks) is also correct
PEPPHER_MPI_GRID=1x4 run_mpi "$out" 4 cholesky 160 32
grep -q ": correct$" "$out/np4/3.log" || { cat "$out/np4/3.log"; fail "cholesky on a 1x4 grid"; }
distributed "$out" 4
as_model 4 1 4 160 32
# a grid of another size stops the program with the reason
PEPPHER_MPI_GRID=3x3 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none -np 2 \
	"$out/starpu-mpi/cholesky" 160 32 > "$out/badgrid.log" 2>&1 && fail "PEPPHER_MPI_GRID=3x3 on 2 ranks accepted"
grep -q "PEPPHER_MPI_GRID=3x3: expected PxQ with P\*Q = 2 ranks" "$out/badgrid.log" ||
	{ cat "$out/badgrid.log"; fail "no clear error for PEPPHER_MPI_GRID=3x3"; }
echo "PASS: cholesky on StarPU-MPI"
