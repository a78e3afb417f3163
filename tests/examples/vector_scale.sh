#!/bin/sh
# Compose examples/vector_scale with the freshly built compose, build it with
# the generated Makefile against the build tree's libpeppher, run it, and
# check its result and that every variant this machine can run ran.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/vector_scale"
rm -rf "$out"
mkdir -p "$out"

"$COMPOSE" "$top_srcdir/examples/vector_scale/main.xml" -o "$out" || exit 1
make -s -C "$out" || exit 1
# fresh performance models: dmda explores every variant before choosing
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/vector_scale" > "$out/run.log" 2>&1
rc=$?
cat "$out/run.log"
[ $rc -eq 0 ] || { echo "FAIL: vector_scale exited with $rc"; exit 1; }
grep -q "calls on 100000 elements: correct" "$out/run.log" ||
	{ echo "FAIL: wrong result"; exit 1; }
. "$top_srcdir/tests/platforms.sh"
variants="vector_scale_cpu_loop vector_scale_cpu_blocked"
have_platform OPENMP && variants="$variants vector_scale_openmp"
# with OpenCL built in (PoCL here), the OpenCL variant runs too
[ -n "$(pkg-config --variable=opencl_libs peppher)" ] &&
	variants="$variants vector_scale_opencl"
for variant in $variants; do
	grep -q "vector_scale/$variant: [1-9]" "$out/run.log" ||
		{ echo "FAIL: $variant never ran"; exit 1; }
done
# a program whose runtime cannot start stops with the reason, exit status 1
PEPPHER_HOME="$out/home" PEPPHER_SCHED=bogus "$out/vector_scale" > "$out/bad.log" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$out/bad.log"; echo "FAIL: exit status $rc with PEPPHER_SCHED=bogus"; exit 1; }
grep -q "bogus" "$out/bad.log" && grep -q "the runtime cannot start; stopping" "$out/bad.log" ||
	{ cat "$out/bad.log"; echo "FAIL: no reason given for PEPPHER_SCHED=bogus"; exit 1; }
grep -q "calls on" "$out/bad.log" && { echo "FAIL: the program went on"; exit 1; }
# composed for OpenCL alone and run without the device, every call fails:
# PEPPHER_SHUTDOWN() says how many and stops the program, exit status 1
if [ -n "$(pkg-config --variable=opencl_libs peppher)" ]; then
	"$COMPOSE" --platforms=OPENCL "$top_srcdir/examples/vector_scale/main.xml" -o "$out-ocl" > /dev/null 2>&1 &&
		make -s -C "$out-ocl" || { echo "FAIL: compose and build for OpenCL alone"; exit 1; }
	PEPPHER_HOME="$out/home" PEPPHER_NOPENCL=0 "$out-ocl/vector_scale" > "$out/failed.log" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$out/failed.log"; echo "FAIL: exit status $rc with every call failed"; exit 1; }
	grep -qx "peppher: 32 calls failed, their data as it was; stopping" "$out/failed.log" ||
		{ cat "$out/failed.log"; echo "FAIL: failed calls not told"; exit 1; }
	grep -q "calls on" "$out/failed.log" && { echo "FAIL: the program went on"; exit 1; }
	# the first 20 are said one by one, then that the others are counted
	[ "$(grep -c "^peppher: vector_scale: call failed" "$out/failed.log")" -eq 20 ] &&
		[ "$(grep -c "^peppher: more calls failed: counted, not said one by one" "$out/failed.log")" -eq 1 ] ||
		{ cat "$out/failed.log"; echo "FAIL: not 20 failed calls said, then one line for the others"; exit 1; }
fi
echo "PASS: vector_scale"
