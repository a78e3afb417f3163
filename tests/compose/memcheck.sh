#!/bin/sh
# make check-long: compose under valgrind's memcheck, on every descriptor
# tree of the project (examples, the evaluation's applications, the golden
# and the failing inputs of make check) and on skeletons generated from
# headers.  A read of freed memory or of an uninitialised value fails the
# run, whatever compose's exit status (the failing inputs exit 1 by design).
# Why: names_check freed the keys of its map while it still looked names
# up in it, each lookup comparing with the keys on its way; every compose
# run read freed memory, and no output showed it.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
work="$top_builddir/tests/out/memcheck"
command -v valgrind > /dev/null || { echo "SKIP: no valgrind (apt-get install valgrind)"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
runs=0 failed=0

# memcheck NAME DIR ARGS...: compose ARGS in DIR under memcheck
memcheck() {
	name=$1 dir=$2
	shift 2
	runs=$((runs + 1))
	log="$work/$(echo "$name" | tr '/' '_').log"
	(cd "$dir" && valgrind -q --error-exitcode=99 --leak-check=no \
		--suppressions="$top_srcdir/tests/compose/memcheck.supp" \
		"$COMPOSE" "$@" > /dev/null 2> "$log")
	if [ $? -eq 99 ]; then
		echo "FAIL: $name: memcheck"
		grep '^==' "$log" | head -20
		failed=$((failed + 1))
	fi
}

for m in "$top_srcdir"/examples/*/main.xml "$top_srcdir"/evaluation/*/main.xml \
	"$top_srcdir"/tests/compose/data/golden/*/main.xml "$top_srcdir"/tests/compose/data/bad/*/main.xml; do
	dir=$(dirname "$m")
	name=${dir#"$top_srcdir"/}
	memcheck "$name" "$dir" main.xml -o "$work/out/$name"
done
for h in "$top_srcdir"/tests/compose/data/headers/*.h /usr/include/zlib.h; do
	[ -e "$h" ] || continue
	name=skeleton/$(basename "$h" .h)
	memcheck "$name" "$work" --generate-comp-files="$h" -o "$work/out/$name"
done
echo "memcheck: $runs compose runs, $failed with memory errors"
[ "$failed" -eq 0 ] && echo "PASS: compose under memcheck" || exit 1
