#!/bin/sh
# tests/starpu-mpi/test_fail: a variant that fails on one rank of two ends
# the job (MPI_Abort: every rank's status non-zero, within the timeout,
# the failed rank saying which call), where it hung; started without
# mpirun (one rank), a failure stays the call's, counted in time.
set -u
out="$top_builddir/tests/out/starpu-mpi/fail"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"
prog="$top_builddir/tests/starpu-mpi/test_fail"

PEPPHER_HOME="$out/home" timeout 120 "$prog" single > "$out/single.log" 2>&1 ||
	{ cat "$out/single.log"; fail "one rank without mpirun exited with $?"; }
grep -q "^single: [1-9][0-9]* checks, 0 failed$" "$out/single.log" ||
	{ cat "$out/single.log"; fail "one rank without mpirun"; }
grep -h "checks" "$out/single.log"

for how in failed error; do
	log="$out/np2-$how"
	PEPPHER_HOME="$out/home-mpi" timeout 120 "$MPIRUN" --allow-run-as-root --oversubscribe \
		--bind-to none --output-filename "$log" -np 2 "$prog" abort "$how" \
		> "$log.mpirun.log" 2>&1
	rc=$?
	cat "$log"/1/rank.*/stderr > "$log.stderr" 2> /dev/null
	cat "$log"/1/rank.*/stdout > "$log.stdout" 2> /dev/null
	[ $rc -ne 124 ] || { cat "$log.mpirun.log" "$log.stderr"; fail "pph_variant_$how on rank 1 of 2: the job hung"; }
	[ $rc -ne 0 ] || { cat "$log.mpirun.log" "$log.stderr"; fail "pph_variant_$how on rank 1 of 2: exit status 0"; }
	grep -q "^peppher: rank 1 of 2: test_flaky/flaky failed (pph_variant_$how): .*ending the job (MPI_Abort)$" \
		"$log.stderr" || { cat "$log.mpirun.log" "$log.stderr"; fail "pph_variant_$how on rank 1 of 2: no message"; }
	! grep -q "^rank 1: went on" "$log.stdout" || fail "pph_variant_$how: rank 1 went on"
	echo "pph_variant_$how on rank 1 of 2: the job ended with status $rc"
done
echo "PASS: a variant failing on one rank ends the job"
