#!/bin/sh
# PEPPHER_MPI_GRID on one rank (no mpirun): PxQ or PXQ in digits starts;
# anything else (a blank, a sign, P*Q not the ranks) fails pph_init with
# that one message, not also "starpu_init failed".
set -u
out="$top_builddir/tests/out/starpu-mpi/grid"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"
prog="$top_builddir/tests/starpu-mpi/test_fail"

for grid in 1x1 1X1 01x1; do
	PEPPHER_MPI_GRID=$grid PEPPHER_HOME="$out/home" timeout 120 "$prog" single > "$out/log" 2>&1 ||
		{ cat "$out/log"; fail "PEPPHER_MPI_GRID='$grid' on one rank refused"; }
done
for grid in 3x3 " 1x1" "1x1 " "1x 1" +1x1 1x1x x1 1x 1*1 0x1; do
	PEPPHER_MPI_GRID=$grid PEPPHER_HOME="$out/home" timeout 120 "$prog" single > "$out/log" 2>&1
	rc=$?
	[ $rc -eq 2 ] || { cat "$out/log"; fail "PEPPHER_MPI_GRID='$grid': pph_init did not fail (status $rc)"; }
	[ "$(grep "^peppher:" "$out/log")" = "peppher: PEPPHER_MPI_GRID=$grid: expected PxQ with P*Q = 1 ranks (P and Q in digits, x or X between)" ] ||
		{ cat "$out/log"; fail "PEPPHER_MPI_GRID='$grid': not that one message"; }
done
echo "PASS: PEPPHER_MPI_GRID"
