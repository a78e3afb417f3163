#!/bin/sh
# Utility mode and prototype checks: skeletons from C headers (golden files),
# no overwriting without --force, the generated tree composes, builds and
# runs, implementation prototypes are checked, and the system's cblas.h
# becomes a composable tree whose access modes follow its const qualifiers.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
data="$top_srcdir/tests/compose/data/skeleton"
work="$top_builddir/tests/out/legacy"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cp "$data/legacy.h" "$work/"
cd "$work" || exit 1

# golden skeletons and warnings
"$COMPOSE" --generate-comp-files=legacy.h -o out > wrote.txt 2> skel.err || { cat skel.err; fail "skeleton"; }
diff -u "$data/expected.err" skel.err || fail "skeleton warnings differ"
diff -ru "$data/expected" out || fail "skeleton files differ"
[ "$(wc -l < wrote.txt)" -eq "$(find out -type f | wc -l)" ] || fail "the run does not list what it wrote"
echo "PASS: skeleton golden files"

# nothing is overwritten without --force, and nothing at all when refused
echo "/* mine */" >> out/saxpy/cpu/saxpy_cpu.c
sum=$(cat $(find out -type f | sort) | cksum)
"$COMPOSE" -generateCompFiles=legacy.h -o out > /dev/null 2> again.err && fail "overwrote without --force"
grep -q "^compose: error: 'out/saxpy/cpu/saxpy_cpu.c' exists: not overwritten (use --force)$" again.err ||
	{ cat again.err; fail "refusal diagnostic"; }
[ "$(cat $(find out -type f | sort) | cksum)" = "$sum" ] || fail "a refused run changed files"
"$COMPOSE" --generate-comp-files=legacy.h -o out --force > /dev/null 2>&1 || fail "--force"
diff -ru "$data/expected" out || fail "--force output differs"
echo "PASS: --force"

# the tree composes as generated (all platforms: the stubs' prototypes are
# checked, CUDA's too), then builds and runs without CUDA to stay quick
"$COMPOSE" out/main.xml -o gen > /dev/null 2> compose.err || { cat compose.err; fail "compose"; }
# a build without CUDA (or OpenCL) notes the variants it skips; nothing else
grep -v "note: skipping '[a-z_0-9]*': this build has no [A-Z]*$" compose.err > compose.rest
[ -s compose.rest ] && { cat compose.rest; fail "composing the skeletons warns"; }
"$COMPOSE" out/main.xml -o gen-host --platforms=CPU,OPENMP,OPENCL > /dev/null 2>&1 || fail "compose for the host"
make_quiet -C gen-host > build.log 2>&1 || { cat build.log; fail "build"; }
PEPPHER_NCPU=2 ./gen-host/legacy_app || fail "run"
echo "PASS: the skeleton tree composes, builds and runs"

# prototype checks: a read-only pointer without const is a warning ...
sed -i 's/const float \*x/float *x/' out/saxpy/cpu/saxpy_cpu.c
"$COMPOSE" out/main.xml -o gen > /dev/null 2> warn.err || { cat warn.err; fail "compose with warning"; }
grep -qx "out/saxpy/cpu/saxpy_cpu.c:7: warning: parameter 'x' of 'saxpy_cpu' is only read (accessMode=\"read\"): declare it 'const float \*'" warn.err ||
	{ cat warn.err; fail "missing-const warning"; }
# ... a wrong type an error, which --no-check-sources lets through
sed -i 's/size_t n, float a/size_t n, double a/' out/saxpy/cpu/saxpy_cpu.c
"$COMPOSE" out/main.xml -o gen-bad > /dev/null 2> type.err && fail "wrong type accepted"
grep -qx "out/saxpy/cpu/saxpy_cpu.c:7: error: parameter 2 of 'saxpy_cpu' is 'double a', but interface 'saxpy' declares 'float a'" type.err ||
	{ cat type.err; fail "wrong-type diagnostic"; }
grep -qx "out/saxpy.xml:7: note: declared here" type.err || { cat type.err; fail "note"; }
[ -e gen-bad ] && fail "output written despite errors"
"$COMPOSE" out/main.xml -o gen-bad --no-check-sources > /dev/null 2>&1 || fail "--no-check-sources"
echo "PASS: prototype checks"

# -I and -D reach the parser: a type from an include folder, a declaration
# behind a macro
mkdir -p inc opts
printf 'typedef double value_t;\n' > inc/value.h
cat > opts/api.h <<'H'
#include <value.h>
#ifdef WITH_SCALE
void api_scale(value_t *v, int n, value_t by);
#endif
void api_zero(value_t *v, int n);
H
"$COMPOSE" --generate-comp-files=opts/api.h -I inc -o opts/out > /dev/null 2> opts.err ||
	{ cat opts.err; fail "-I"; }
[ -e opts/out/api_scale.xml ] && fail "WITH_SCALE undefined, yet api_scale generated"
grep -q 'type="value_t \*" accessMode="readwrite" numElements="n"' opts/out/api_zero.xml ||
	fail "-I: value_t parameter"
"$COMPOSE" --generate-comp-files=opts/api.h -I inc -D WITH_SCALE -o opts/out2 > /dev/null 2>&1 ||
	fail "-D"
[ -e opts/out2/api_scale.xml ] || fail "-D WITH_SCALE did not declare api_scale"
"$COMPOSE" --generate-comp-files=opts/api.h -o opts/out3 > /dev/null 2> noinc.err &&
	fail "a missing include folder went unnoticed"
grep -q "opts/api.h:1: error: 'value.h' file not found" noinc.err || { cat noinc.err; fail "missing include diagnostic"; }
[ -e opts/out3 ] && fail "a failed run wrote files"
echo "PASS: -I and -D"

# the system's cblas.h
cblas=
for f in /usr/include/x86_64-linux-gnu/cblas.h /usr/include/cblas.h; do
	[ -e "$f" ] && { cblas=$f; break; }
done
[ -n "$cblas" ] || { echo "SKIP: no cblas.h (Debian libblas-dev)"; exit 0; }
"$COMPOSE" --generate-comp-files="$cblas" -o cblas > /dev/null 2> cblas.err || { cat cblas.err; fail "cblas skeleton"; }
# every function gcc sees declared in the header has its interface
gcc -fsyntax-only -aux-info cblas.aux -x c "$cblas" || fail "gcc -aux-info"
expected=$(grep -c "^/\* $cblas:" cblas.aux)
[ "$(ls cblas/*.xml | grep -vc main.xml)" -eq "$expected" ] ||
	fail "cblas: $(ls cblas/*.xml | grep -vc main.xml) interfaces for $expected functions"
# access modes follow const: const T * is read, T * readwrite, by value read
bad=$(grep -h '<peppher:parameter ' cblas/*.xml | grep -v \
	-e 'type="const [^"]*\*" accessMode="read"' \
	-e 'type="[^"]*[^*]" accessMode="read"' \
	-e 'type="[^c"][^"]*\*" accessMode="readwrite"')
[ -z "$bad" ] || { echo "$bad" | head; fail "cblas: access modes do not follow const"; }
"$COMPOSE" cblas/main.xml -o cblas-gen --platforms=CPU > /dev/null 2>&1 || fail "cblas: compose"
make_quiet -C cblas-gen -j2 > cblas-build.log 2>&1 || { tail cblas-build.log; fail "cblas: build"; }
echo "PASS: cblas.h ($expected functions) composes and builds"
