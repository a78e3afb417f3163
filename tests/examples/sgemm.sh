#!/bin/sh
# examples/sgemm, composed against the repository's sgemm: repeated calls on
# two shapes, every result checked against a sequential reference; the
# scheduler explores the variants, so more than one of them runs.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/sgemm"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" -R "$top_srcdir/repository" "$top_srcdir/examples/sgemm/main.xml" -o "$out" 2> /dev/null ||
	fail "compose"
make -s -C "$out" || fail "build"
for shape in "300 257 190 8" "64 1000 33 6"; do
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/sgemm" $shape > "$out/run.log" 2>&1 ||
		{ cat "$out/run.log"; fail "run $shape"; }
	cat "$out/run.log"
	grep -q "^sgemm: .*: correct$" "$out/run.log" || fail "wrong result ($shape)"
done
[ "$(grep -c '^ *sgemm/sgemm_[a-z]*: [1-9]' "$out/run.log")" -ge 2 ] || fail "one variant only"
echo "PASS: sgemm"
