#!/bin/sh
# tests/starpu-mpi/test_owner: ranks and owners (<peppher/distributed.h>) on
# libpeppher-starpu-mpi under mpirun on 1, 2 and 4 ranks (and on 2 where the
# program starts MPI itself), and on libpeppher (test_owner_single: rank 0
# of 1).
set -u
out="$top_builddir/tests/out/starpu-mpi/owner"
rm -rf "$out"
mkdir -p "$out"
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$top_builddir/tests/starpu-mpi/test_owner_single" 1 > "$out/single.log" 2>&1 ||
	{ cat "$out/single.log"; echo "FAIL: rank 0 of 1 on libpeppher"; exit 1; }
cat "$out/single.log"
. "$top_srcdir/tests/starpu-mpi/common.sh"
mkdir -p "$out/starpu-mpi"
cp "$top_builddir/tests/starpu-mpi/test_owner" "$out/starpu-mpi/"
for np in 1 2 4; do
	run_mpi "$out" $np test_owner $np
	r=0
	while [ $r -lt $np ]; do
		grep -q "^rank $r of $np: [1-9][0-9]* checks, 0 failed$" "$out/np$np/$r.log" ||
			{ cat "$out/np$np/$r.log"; fail "rank $r of $np"; }
		r=$((r + 1))
	done
	grep -h "checks" "$out/np$np/0.log"
done
# MPI initialised by the program before pph_init: left to it
run_mpi "$out" 2 test_owner 2 app-mpi
for r in 0 1; do
	grep -q "^rank $r of 2: [1-9][0-9]* checks, 0 failed (MPI started by the program)$" "$out/np2/$r.log" ||
		{ cat "$out/np2/$r.log"; fail "rank $r of 2, MPI started by the program"; }
done
grep -h "checks" "$out/np2/0.log"
echo "PASS: ranks and owners"
