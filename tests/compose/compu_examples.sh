#!/bin/sh
# ComPU's own examples (github.com/lilu09/compu, examples/1 to 3), composed
# with their descriptors and variant sources untouched, built and run.
# Their main.c needs SkePU++.h, which ComPU does not ship: a driver of ours
# stands in for it.  COMPU_DIR names a checkout; without one the test is
# skipped (make check-long runs it when COMPU_DIR is set).
set -u
: "${top_builddir:?}" "${COMPOSE:?}"
[ -d "${COMPU_DIR:-}/examples" ] || { echo "SKIP: set COMPU_DIR to a checkout of lilu09/compu"; exit 77; }
work="$top_builddir/tests/out/compu"
fail=0

for ex in 1.vector_scale 2.vector_scale_with_constraints 3.vector_scale_with_lib_constraints; do
	w="$work/$ex"
	rm -rf "$w"
	mkdir -p "$work"
	cp -R "$COMPU_DIR/examples/$ex" "$w"
	chmod -R u+w "$w"
	# what ComPU generated there: compose writes over no file it did not write
	rm -f "$w/peppher.h" "$w/vector_scale_wrapper.h" "$w/makefile"
	cat > "$w/main.c" <<'CPP'
// Stands in for ComPU's main.c (which needs SkePU++.h): the same calls.
#include <cstdio>
#include "peppher.h"
#define NX 30
int main()
{
	float vector[NX], factor = 2;
	int bad = 0;

	PEPPHER_INITIALIZE();
	for (int i = 0; i < NX; i++)
		vector[i] = i * 10;
	vector_scale(vector, NX, factor);
	PEPPHER_SHUTDOWN();
	for (int i = 0; i < NX; i++)
		bad += vector[i] != i * 10 * factor;
	std::printf("RESULT: %s\n", bad ? "WRONG" : "correct");
	return bad != 0;
}
CPP
	opts=
	# example 1's CUDA variant calls cudaThreadSynchronize, which CUDA 12
	# removed: with a newer nvcc it cannot build, whoever composes it
	if command -v nvcc > /dev/null && grep -q cudaThreadSynchronize "$w"/vector_scale/*.cu &&
	   [ "$(nvcc --version | sed -n 's/.*release \([0-9]*\).*/\1/p')" -ge 12 ]; then
		echo "note: $ex: composed with -disableCUDA (its CUDA variant needs CUDA < 12)"
		opts=-disableCUDA
	fi
	if ! (cd "$w" && "$COMPOSE" $opts main.xml > "$w.compose" 2>&1); then
		cat "$w.compose"
		echo "FAIL: $ex: compose"
		fail=1
	elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$w" > "$w.make" 2>&1; then
		cat "$w.make"
		echo "FAIL: $ex: make"
		fail=1
	elif ! (cd "$w" && PEPPHER_HOME="$w/home" ./main > "$w.out" 2>&1) ||
	     ! grep -q "RESULT: correct" "$w.out"; then
		cat "$w.out"
		echo "FAIL: $ex: run"
		fail=1
	else
		echo "PASS: $ex ($(grep -c 'Hello in vector-scale CPU call' "$w.out") call(s) of ComPU's CPU variant)"
	fi
done
exit $fail
