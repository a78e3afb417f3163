#!/bin/sh
# examples/legacy: a plain C program (before/) and the same program
# PEPPHER-ized with utility mode (after/).  Their sources differ by three
# lines; after/components/ is what utility mode writes for filters.h, but
# for blur's OpenMP and OpenCL variants (filled in and enabled) and two
# access modes (checked guesses); both programs print the same images'
# digests, and every blur variant this machine can run ran.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
src="$top_srcdir/examples/legacy"
out="$top_builddir/tests/out/examples/legacy"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
rm -rf "$out"
mkdir -p "$out"

# the program as it was, with its own Makefile
cp -R "$src/before" "$out/before"
chmod -R u+w "$out/before"
make_quiet -C "$out/before" > "$out/before.log" 2>&1 || { cat "$out/before.log"; fail "before: build"; }
"$out/before/filters" 8 > "$out/before.out" || fail "before: run"

# the sources differ by the three lines
for f in main.c image.c image.h filters.c filters.h; do
	diff "$src/before/$f" "$src/after/$f" > "$out/$f.diff"
done
cat "$out"/*.diff > "$out/sources.diff"
[ "$(grep -c '^>' "$out/sources.diff")" -eq 3 ] && ! grep -q '^<' "$out/sources.diff" ||
	{ cat "$out/sources.diff"; fail "the sources differ by more than three added lines"; }
for line in '#include "peppher.h"' 'PEPPHER_INITIALIZE();' 'PEPPHER_SHUTDOWN();'; do
	grep -q "^>[[:space:]]*$line\$" "$out/main.c.diff" || fail "main.c does not add $line"
done

# components/ is utility mode's output, but for what the user changed
if "$COMPOSE" --version | grep -q "^C parser: libclang"; then
	cp "$src/after/filters.h" "$out/"
	(cd "$out" && "$COMPOSE" --generate-comp-files=filters.h -o components > /dev/null) ||
		fail "utility mode"
	diff -r -x main.xml -x main.c -x openmp -x opencl -x blur.xml -x sharpen.xml \
		"$out/components" "$src/after/components" || fail "components/ differs from utility mode's output"
	diff -r "$out/components/blur/openmp" "$src/after/components/blur/openmp" > /dev/null &&
		fail "blur's OpenMP variant is still the stub"
	echo "PASS: after/components is utility mode's output, blur's variants filled in"
fi

# the PEPPHER-ized program prints the same, with all of blur's variants
# (the scheduler chooses), and with each alone
run_after() { # name [compose options]
	name=$1
	shift
	"$COMPOSE" "$src/after/main.xml" -o "$out/$name" "$@" > /dev/null 2> "$out/$name.compose.err" || { cat "$out/$name.compose.err"; fail "$name: compose"; }
	make_quiet -C "$out/$name" > "$out/$name.log" 2>&1 || { cat "$out/$name.log"; fail "$name: build"; }
	PEPPHER_HOME="$out/home-$name" PEPPHER_NCPU=2 PEPPHER_STATS=1 POCL_CACHE_DIR="$out/pocl" \
		"$out/$name/filters" 8 > "$out/$name.out" 2> "$out/$name.stats" ||
		{ cat "$out/$name.stats"; fail "$name: run"; }
	diff -u "$out/before.out" "$out/$name.out" || fail "$name: the PEPPHER-ized program prints other images"
}
run_after after
. "$top_srcdir/tests/platforms.sh"
variants=blur_cpu
have_platform OPENMP && variants="$variants blur_openmp"
[ -n "$(pkg-config --variable=opencl_libs peppher)" ] && variants="$variants blur_opencl"
for v in $variants; do
	others=$(echo blur_cpu blur_openmp blur_opencl | tr ' ' '\n' | grep -vx "$v" | paste -sd, -)
	run_after "$v" --disable-impls="$others"
	grep -q "blur/$v: [1-9]" "$out/$v.stats" || { cat "$out/$v.stats"; fail "$v never ran"; }
	# composed without OpenCL variants: no OpenCL device started
	if [ "$v" != blur_opencl ] && grep -q "(OPENCL)" "$out/$v.stats"; then
		cat "$out/$v.stats"
		fail "$v: composed without OpenCL, yet an OpenCL worker started"
	fi
done
[ "$variants" = "${variants%blur_opencl}" ] || grep -q "(OPENCL)" "$out/blur_opencl.stats" ||
	fail "blur_opencl: no OpenCL worker"
echo "PASS: examples/legacy: three lines, the same images, with $variants"
