#!/bin/sh
# Build every direct version of evaluation/direct (the applications written
# on libpeppher's task API by hand, for Table I) and check its result at the
# quick size, as check.sh does for the composed programs.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/platforms.sh"
need_platforms "the direct versions call libpeppher's OpenCL API" OPENCL
out="$top_builddir/tests/out/evaluation/direct"
rm -rf "$out"
mkdir -p "$out"
status=0
for dir in "$top_srcdir"/evaluation/direct/*/; do
	app=$(basename "$dir")
	if ! sh "$top_srcdir/evaluation/direct/build.sh" "$app" "$out/$app" > "$out/$app.log" 2>&1; then
		cat "$out/$app.log"
		echo "FAIL: build the direct $app"
		status=1
		continue
	fi
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/$app/$app" quick > "$out/$app.run" 2>&1
	tail -1 "$out/$app.run"
	grep -q "^$app: size [0-9]*: .* s: correct" "$out/$app.run" ||
		{ cat "$out/$app.run"; echo "FAIL: the direct $app"; status=1; }
done
[ $status -eq 0 ] && echo "PASS: direct versions"
exit $status
