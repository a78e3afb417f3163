#!/bin/sh
# Failing inputs of compose.  Each folder in tests/compose/data/bad/ holds a
# main.xml (and what it refers to) that compose must reject with exactly the
# diagnostics in expected.err, a non-zero exit, and an output folder left as
# it was.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
data="$top_srcdir/tests/compose/data/bad"
work="$top_builddir/tests/out/bad"
fail=0

# prototype checks need compose built with libclang
have_libclang=no
"$COMPOSE" --version | grep -q "^C parser: libclang" && have_libclang=yes
. "$top_srcdir/tests/platforms.sh"
# compose skips a variant for a platform this build lacks, with a note, and
# does not check it: a case whose descriptors use one (compose notes it, the
# case's expected diagnostics do not) is skipped, saying so; the checks that
# compose fails and leaves the output folder as it was are still made
missing_platform() { # output expected
	for p in OPENMP CUDA OPENCL; do
		have_platform $p && continue
		grep -q "note: skipping '.*': this build has no $p$" "$1" &&
			! grep -q "this build has no $p$" "$2" && { echo $p; return; }
	done
}

for case in "$data"/*/; do
	name=$(basename "$case")
	case "$name:$have_libclang" in
	proto-*:no) echo "SKIP: $name (no libclang)"; continue ;;
	esac
	out="$work/$name"
	rm -rf "${out:?}"
	mkdir -p "$out"
	echo "earlier output" > "$out/peppher.h"
	if (cd "$case" && "$COMPOSE" main.xml -o "$out" 2> "$out.err" > /dev/null); then
		missing=$(missing_platform "$out.err" "$case/expected.err")
		[ -n "$missing" ] && { echo "SKIP: $name (this build has no $missing, which its descriptors use)"; continue; }
		echo "FAIL: $name: compose succeeded"
		fail=1
		continue
	fi
	missing=$(missing_platform "$out.err" "$case/expected.err")
	if [ -z "$missing" ] && ! diff -u "$case/expected.err" "$out.err"; then
		echo "FAIL: $name: diagnostics differ"
		fail=1
	elif [ "$(ls -A "$out")" != peppher.h ] ||
	     [ "$(cat "$out/peppher.h")" != "earlier output" ]; then
		echo "FAIL: $name: the output folder changed"
		ls -lA "$out"
		fail=1
	elif [ -n "$missing" ]; then
		echo "SKIP: $name (this build has no $missing, which its descriptors use: diagnostics not compared)"
	else
		echo "PASS: $name"
	fi
done
exit $fail
