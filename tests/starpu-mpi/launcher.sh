#!/bin/sh
# libpeppher (not built for MPI) under mpirun on 2 ranks: a program that
# starts MPI itself, before pph_init or after it (a hybrid one), is not
# warned that each rank runs all of it alone (every rank said so, with no
# way to silence it); one that does not is.  PEPPHER_TRACE=FILE.json writes a file per
# rank, FILE.R.json: every rank wrote FILE.json, their traces one after
# the other, no JSON.
set -u
out="$top_builddir/tests/out/starpu-mpi/launcher"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"
prog="$top_builddir/tests/starpu-mpi/test_launcher"
warning="^peppher: warning: started as one of 2 MPI ranks, but this program is not built for MPI"

# run NAME MODE [mpirun options]: each rank's output in $out/NAME.R.log (the
# ranks' lines, mixed in one stream, could be cut into each other)
run() {
	name=$1 mode=$2
	shift 2
	PEPPHER_HOME="$out/home" timeout 60 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none \
		--output-filename "$out/$name.d" "$@" -np 2 "$prog" "$mode" > "$out/$name.log" 2>&1
	rc=$?
	for r in 0 1; do
		cat "$out/$name.d"/*/rank.$r/stdout "$out/$name.d"/*/rank.$r/stderr > "$out/$name.$r.log" 2> /dev/null
	done
	[ $rc -eq 0 ] || { cat "$out/$name.log" "$out/$name".?.log; fail "$name: exit status $rc"; }
	for r in 0 1; do
		grep -q "^rank $r of 2: done$" "$out/$name.$r.log" || { cat "$out/$name.$r.log"; fail "$name: rank $r"; }
	done
}

run hybrid mpi
! grep -q "$warning" "$out"/hybrid.?.log || { cat "$out"/hybrid.?.log; fail "MPI started by the program: warned"; }
run late late
! grep -q "$warning" "$out"/late.?.log || { cat "$out"/late.?.log; fail "MPI started by the program after pph_init: warned"; }
run plain plain
for r in 0 1; do
	grep -q "$warning" "$out/plain.$r.log" || { cat "$out/plain.$r.log"; fail "MPI not started: rank $r not warned"; }
done

run trace mpi -x PEPPHER_TRACE="$out/trace.json"
[ ! -e "$out/trace.json" ] || fail "PEPPHER_TRACE on 2 ranks: both wrote $out/trace.json"
for r in 0 1; do
	f="$out/trace.$r.json"
	[ -s "$f" ] || { ls "$out"; fail "PEPPHER_TRACE on 2 ranks: no $f"; }
	[ "$(grep -c "traceEvents" "$f")" -eq 1 ] && [ "$(tail -n 1 "$f")" = '],"displayTimeUnit":"ms"}' ] ||
		{ cat "$f"; fail "PEPPHER_TRACE on 2 ranks: $f is not one trace"; }
	[ "$(grep -c '"name":"twice/twice_cpu"' "$f")" -eq 4 ] || { cat "$f"; fail "$f: not the rank's 4 tasks"; }
	if command -v python3 > /dev/null; then
		python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$f" || fail "$f: not JSON"
	fi
done
echo "PASS: libpeppher under mpirun: no warning where the program started MPI, a trace per rank"
