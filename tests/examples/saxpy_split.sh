#!/bin/sh
# examples/saxpy_split: every call is split into one block per worker; the
# blocks run on CPU workers and, when OpenCL is built in, on the OpenCL
# device too.  Checks the result and where the blocks ran.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/saxpy_split"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" "$top_srcdir/examples/saxpy_split/main.xml" -o "$out" 2> /dev/null || fail "compose"
make -s -C "$out" || fail "build"
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/saxpy_split" > "$out/run.log" 2>&1 ||
	{ cat "$out/run.log"; fail "run"; }
cat "$out/run.log"
grep -q ": correct$" "$out/run.log" || fail "wrong result"
# both CPU workers ran blocks of the same calls
[ "$(grep -c 'saxpy/saxpy_cpu: [1-9]' "$out/run.log")" -eq 2 ] || fail "blocks on both CPU workers"
if [ -n "$(pkg-config --variable=opencl_libs peppher)" ]; then
	grep -q "saxpy/saxpy_opencl: [1-9]" "$out/run.log" || fail "no block on the OpenCL device"
fi
echo "PASS: saxpy_split"
