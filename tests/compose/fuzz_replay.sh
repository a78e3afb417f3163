#!/bin/sh
# The fuzz target (fuzz/fuzz_load.c) run once over every descriptor of the
# project, built with the compiler of the build (fuzz/replay.c): it must
# build and get through all of them.  scripts/fuzz runs it under libFuzzer
# and AddressSanitizer.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
cd "$top_srcdir" || exit 1
find examples tests/compose/data evaluation -name '*.xml' | sort > "$top_builddir/tests/fuzz_replay.list"
n=$(wc -l < "$top_builddir/tests/fuzz_replay.list")
out=$(xargs "$top_builddir/tests/compose/fuzz_replay" < "$top_builddir/tests/fuzz_replay.list") ||
	{ echo "FAIL: the fuzz target stopped"; exit 1; }
# xargs may split the list: the counts add up
got=$(echo "$out" | awk '{ s += $1 } END { print s }')
[ "$got" -eq "$n" ] || { echo "FAIL: $got of $n descriptors went through"; exit 1; }
echo "PASS: $n descriptors through the fuzz target"
