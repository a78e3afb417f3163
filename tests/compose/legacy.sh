#!/bin/sh
# Utility mode and prototype checks: skeletons from C headers (golden files),
# no overwriting without --force, the generated tree composes, builds and
# runs (its CPU variants call the library's functions: the application's
# calls give what they gave before), --empty-stubs, and implementation
# prototypes are checked.  Real libraries' headers: legacy_libs.sh.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
data="$top_srcdir/tests/compose/data/skeleton"
work="$top_builddir/tests/out/legacy"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cp "$data/legacy.h" "$data/legacy.c" "$work/"
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
# its CPU variants call the library's functions: link them
gcc -c -O2 -o legacy.o legacy.c && ar rc liblegacy.a legacy.o || fail "liblegacy.a"
make_quiet -C gen-host LDLIBS="$work/liblegacy.a" > build.log 2>&1 || { cat build.log; fail "build"; }
PEPPHER_NCPU=2 ./gen-host/legacy_app || fail "run"
echo "PASS: the skeleton tree composes, builds and runs"

# delegation: the application calls the library's functions as before, the
# calls go through PEPPHER (entry wrappers linked as __wrap_NAME), and the
# CPU variants reach the originals in a static library (make LDLIBS=...)
cp "$data/app.c" out/main.c
"$COMPOSE" out/main.xml -o gen-app --platforms=CPU,OPENMP,OPENCL > /dev/null 2>&1 || fail "compose the application"
grep -q -- "-Wl,--wrap=saxpy " gen-app/Makefile || fail "no --wrap in the link step"
make_quiet -C gen-app LDLIBS="$work/liblegacy.a" > app-build.log 2>&1 || { cat app-build.log; fail "build the application"; }
nm gen-app/legacy_app | grep -q " T __wrap_gemm$" || fail "gemm is not wrapped"
PEPPHER_NCPU=2 PEPPHER_TRACE="$work/app.trace" ./gen-app/legacy_app || fail "the application's results differ"
for f in saxpy norm2 advance pack db_open db_count stream_init vfill gemm; do
	grep -q "\"$f/${f}_cpu\"" app.trace || fail "$f did not run as a component"
done
echo "PASS: delegating CPU variants: the application's results are unchanged"

# -flto would resolve a wrapped function the program defines before --wrap
# sees its calls: make says so (and only then)
lto_warning="-flto: a wrapped function that this program's own sources define is not wrapped"
make_quiet -C gen-app -n CFLAGS="-O2 -flto=auto" > lto.log 2>&1
grep -q -- "$lto_warning" lto.log || { cat lto.log; fail "make with -flto does not warn"; }
make_quiet -C gen-app -n > nolto.log 2>&1
grep -q -- "-flto" nolto.log && { cat nolto.log; fail "make without -flto warns"; }
echo "PASS: make warns that -flto defeats the wrapping of the program's own functions"

# --empty-stubs: today's skeletons, no wrapping, bodies to fill in
"$COMPOSE" --generate-comp-files=legacy.h --empty-stubs -o empty > /dev/null 2>&1 || fail "--empty-stubs"
grep -l 'wrap=' empty/*.xml && fail "--empty-stubs: an interface wraps"
grep -q "TODO: the computation" empty/saxpy/cpu/saxpy_cpu.c || fail "--empty-stubs: no empty body"
grep -q '<peppher:implementation name="saxpy_cpu">' empty/saxpy/cpu/saxpy_cpu.xml || fail "--empty-stubs: CPU variant disabled"
grep -q 'name="saxpy_openmp" disable="true"' empty/saxpy/openmp/saxpy_openmp.xml || fail "--empty-stubs: OpenMP stub enabled"
"$COMPOSE" empty/main.xml -o empty-gen --platforms=CPU,OPENMP,OPENCL > /dev/null 2>&1 || fail "--empty-stubs: compose"
echo "PASS: --empty-stubs"

# prototype checks: a read-only pointer without const is a warning ...
sed -i 's/const float \*x/float *x/' out/saxpy/cpu/saxpy_cpu.c
"$COMPOSE" out/main.xml -o gen > /dev/null 2> warn.err || { cat warn.err; fail "compose with warning"; }
grep -qx "out/saxpy/cpu/saxpy_cpu.c:12: warning: parameter 'x' of 'saxpy_cpu' is only read (accessMode=\"read\"): declare it 'const float \*', or, if the variant writes it, make its accessMode \"readwrite\" or \"write\"" warn.err ||
	{ cat warn.err; fail "missing-const warning"; }
# ... a wrong type an error, which --no-check-sources lets through
sed -i 's/size_t n, float a/size_t n, double a/' out/saxpy/cpu/saxpy_cpu.c
"$COMPOSE" out/main.xml -o gen-bad > /dev/null 2> type.err && fail "wrong type accepted"
grep -qx "out/saxpy/cpu/saxpy_cpu.c:12: error: parameter 2 of 'saxpy_cpu' is 'double a', but interface 'saxpy' declares 'float a'" type.err ||
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
# a -D value with a space, quotes and '$' reaches the program as given
# (make would take "$5" for a variable, the shell "'" for a quote)
"$COMPOSE" --generate-comp-files=opts/api.h -I inc "-DGREETING=\"it's \$5, 100%\"" \
	-o opts/quoted > /dev/null 2> quoted.err || { cat quoted.err; fail "-D with quotes"; }
sed -i 's|PEPPHER_INITIALIZE();|&\n\tputs(GREETING);|' opts/quoted/main.c
sed -i 's|#include "peppher.h"|&\n#include <stdio.h>|' opts/quoted/main.c
"$COMPOSE" opts/quoted/main.xml -o opts/quoted-gen > /dev/null 2> quoted.err ||
	{ cat quoted.err; fail "compose of a tree read with a quoted -D"; }
printf '#include "api.h"\nvoid api_zero(value_t *v, int n) { while (n--) v[n] = 0; }\n' > opts/api.c
gcc -c -I inc -o opts/api.o opts/api.c || fail "api.c"
make_quiet -C opts/quoted-gen LDLIBS="$work/opts/api.o" > quoted.log 2>&1 || { cat quoted.log; fail "build with a quoted -D"; }
[ "$(PEPPHER_NCPU=1 ./opts/quoted-gen/api_app)" = "it's \$5, 100%" ] || fail "the -D value changed on its way"
# what descriptors cannot carry is refused at once, by name
"$COMPOSE" --generate-comp-files=opts/api.h -I inc "-DHASH=a#b" -o opts/hash > /dev/null 2> hash.err &&
	fail "a -D with '#' accepted"
grep -qx "compose: error: option '-DHASH=a#b' holds '#': the descriptors' compiler flags cannot carry it (control characters and ; | & \` < > # \\\\ are refused there)" hash.err ||
	{ cat hash.err; fail "-D with '#': diagnostic"; }
[ -e opts/hash ] && fail "a refused -D wrote files"
echo "PASS: -I and -D"
