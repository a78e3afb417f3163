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

# the PEPPHER-ized program prints the same, every blur variant running
"$COMPOSE" "$src/after/main.xml" -o "$out/after" > /dev/null || fail "after: compose"
make_quiet -C "$out/after" > "$out/after.log" 2>&1 || { cat "$out/after.log"; fail "after: build"; }
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 POCL_CACHE_DIR="$out/pocl" \
	"$out/after/filters" 8 > "$out/after.out" 2> "$out/stats.log" || { cat "$out/stats.log"; fail "after: run"; }
diff -u "$out/before.out" "$out/after.out" || fail "the PEPPHER-ized program prints other images"
variants="blur_cpu blur_openmp"
[ -n "$(pkg-config --variable=opencl_libs peppher)" ] && variants="$variants blur_opencl"
for v in $variants; do
	grep -q "blur/$v: [1-9]" "$out/stats.log" || { cat "$out/stats.log"; fail "$v never ran"; }
done
echo "PASS: examples/legacy: three lines, the same images, $variants"
