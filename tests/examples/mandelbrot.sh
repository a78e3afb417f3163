#!/bin/sh
# examples/mandelbrot: each call split into 16 blocks of rows that run on
# both CPU workers and, when OpenCL is built in, the OpenCL device.  Checks
# the image against a sequential computation and where the blocks ran.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/mandelbrot"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" "$top_srcdir/examples/mandelbrot/main.xml" -o "$out" 2> /dev/null || fail "compose"
make -s -C "$out" || fail "build"
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/mandelbrot" > "$out/run.log" 2>&1 ||
	{ cat "$out/run.log"; fail "run"; }
cat "$out/run.log"
grep -q ": correct$" "$out/run.log" || fail "wrong result"
[ "$(grep -c 'mandelbrot/mandelbrot_cpu: [1-9]' "$out/run.log")" -eq 2 ] || fail "blocks on both CPU workers"
if [ -n "$(pkg-config --variable=opencl_libs peppher)" ]; then
	grep -q "mandelbrot/mandelbrot_opencl: [1-9]" "$out/run.log" || fail "no block on the OpenCL device"
fi
echo "PASS: mandelbrot"
