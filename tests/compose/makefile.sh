#!/bin/sh
# The generated Makefile under make's conventions, with gcc
# (tests/compose/data/makefile: a C++ main source whose descriptor names
# gcc, and a stand-in for the installed repository found with -R):
#  - the C++ source is compiled with $(CXX) $(CXXFLAGS) and the program
#    linked with libstdc++ (it was $(CC) $(CFLAGS), and operator delete
#    was undefined);
#  - CFLAGS is on the link line too: CFLAGS=-fsanitize=address linked
#    without libasan (undefined __asan_ symbols).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
. "$top_srcdir/tests/platforms.sh"
need_platforms "the program's team variant" OPENMP
out="$top_builddir/tests/out/makefile"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
cp -R "$top_srcdir/tests/compose/data/makefile/app" "$top_srcdir/tests/compose/data/makefile/repo" "$out"
chmod -R u+w "$out"

"$COMPOSE" --platforms=CPU,OPENMP -R "$out/repo" "$out/app/main.xml" -o "$out/gen" ||
	fail "compose"
grep -q "^	\$(CXX) -O2 .*\$(CXXFLAGS) .* -c [^ ]*app/main.cpp -o" "$out/gen/Makefile" ||
	{ grep -A1 "^main__main.o" "$out/gen/Makefile"; fail "main.cpp (gcc) is not compiled with \$(CXX) \$(CXXFLAGS)"; }
gen="$out/gen"
if printf 'int main(void) { return 0; }\n' | gcc -fsanitize=address -x c - -o "$out/asan" 2> /dev/null; then
	cflags="-O1 -fsanitize=address"
else
	echo "gcc cannot link -fsanitize=address here: CFLAGS=-O1 -Wl,-Map=... instead"
	cflags="-O1 -Wl,-Map=$out/link.map"
fi
mk -C "$gen" CFLAGS="$cflags" > "$out/build.log" 2>&1 ||
	{ cat "$out/build.log"; fail "make CFLAGS='$cflags'"; }
case $cflags in
*sanitize*) readelf -d "$gen/mk_app" | grep -q "NEEDED.*libasan" || fail "CFLAGS=-fsanitize=address: no libasan" ;;
*) [ -s "$out/link.map" ] || fail "CFLAGS=-Wl,-Map=...: not on the link line" ;;
esac
ASAN_OPTIONS=detect_leaks=0 PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_SCHED=eager \
	"$gen/mk_app" > "$out/run.log" 2>&1 || { cat "$out/run.log"; fail "the program"; }
cat "$out/run.log"
grep -q "^scale: correct$" "$out/run.log" || fail "scale: wrong result"
grep -q "^team: 2 OpenMP threads in a team of 2$" "$out/run.log" ||
	fail "the OpenMP variant's region did not have its team's threads"
echo "PASS: makefile"
