#!/bin/sh
# The generated Makefile under make's conventions, with gcc
# (tests/compose/data/makefile: a C++ main source whose descriptor names
# gcc, and a stand-in for the installed repository found with -R):
#  - the C++ source is compiled with $(CXX) $(CXXFLAGS) and the program
#    linked with libstdc++ (it was $(CC) $(CFLAGS), and operator delete
#    was undefined);
#  - CFLAGS is on the link line too: CFLAGS=-fsanitize=address linked
#    without libasan (undefined __asan_ symbols);
#  - make clean, and make install of a program built, need no pkg-config
#    (they said "Package peppher was not found", and install stopped);
#  - the program has one OpenMP runtime, libgomp, named before libpeppher;
#  - files outside the application's folder, or all when the output folder
#    is outside it, are named by absolute paths: the output folder moves
#    to another depth and still builds; with the output folder inside the
#    application's, the application's files are relative: the application
#    moves as a whole.
# makefile_nvcc.sh and makefile_clang.sh test nvcc and clang.
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
grep -q "^main__main.o: $out/app/main.cpp " "$out/gen/Makefile" &&
	grep -q "^team_omp__team_omp.o: $out/repo/team/omp/team_omp.c " "$out/gen/Makefile" ||
	fail "the output folder is outside the application's: its paths are not absolute"

# moved to another depth, it still builds
mkdir -p "$out/moved/deeper"
mv "$out/gen" "$out/moved/deeper/gen"
gen="$out/moved/deeper/gen"
if printf 'int main(void) { return 0; }\n' | gcc -fsanitize=address -x c - -o "$out/asan" 2> /dev/null; then
	cflags="-O1 -fsanitize=address"
else
	echo "gcc cannot link -fsanitize=address here: CFLAGS=-O1 -Wl,-Map=... instead"
	cflags="-O1 -Wl,-Map=$out/link.map"
fi
mk -C "$gen" CFLAGS="$cflags" > "$out/build.log" 2>&1 ||
	{ cat "$out/build.log"; fail "make CFLAGS='$cflags' in the moved output folder"; }
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
# one OpenMP runtime, libgomp, before libpeppher (runtime/openmp_env.c)
needed=$(readelf -d "$gen/mk_app" | sed -n 's/.*NEEDED.*\[\(lib[a-z]*\).*/\1/p' | tr '\n' ' ')
case " $needed" in
*" libgomp "*"libpeppher "*) ;;
*) fail "libgomp is not named before libpeppher: $needed" ;;
esac
case " $needed" in *" libomp "* | *" libiomp5 "*) fail "a second OpenMP runtime: $needed" ;; esac

# make install of the program built, and make clean, without pkg-config
nopc() { env PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=/nonexistent "$@"; }
nopc env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$gen" install DESTDIR="$out/stage" \
	prefix=/opt/mk > "$out/install.log" 2>&1 || { cat "$out/install.log"; fail "make install without pkg-config"; }
[ -x "$out/stage/opt/mk/bin/mk_app" ] || fail "make install: no program installed"
nopc env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$gen" clean > "$out/clean.log" 2>&1 ||
	{ cat "$out/clean.log"; fail "make clean without pkg-config"; }
grep -i -e "package" -e "pkg-config" "$out/install.log" "$out/clean.log" && fail "pkg-config ran"
[ -e "$gen/mk_app" ] && fail "make clean left the program"
# building still needs it, and says so before compiling anything
nopc env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$gen" > "$out/nopc.log" 2>&1 &&
	fail "make without pkg-config's peppher"
grep -q "pkg-config finds no peppher: put the folder of peppher.pc (PREFIX/lib/pkgconfig) on PKG_CONFIG_PATH" "$out/nopc.log" ||
	{ cat "$out/nopc.log"; fail "make without pkg-config's peppher: not said"; }
ls "$gen"/*.o > /dev/null 2>&1 && fail "make without pkg-config compiled something"

# the output folder in the application's: its files relative, the
# repository's absolute; the application moved as a whole still builds
"$COMPOSE" --platforms=CPU,OPENMP -R "$out/repo" "$out/app/main.xml" -o "$out/app/build" ||
	fail "compose into the application's folder"
grep -q "^main__main.o: \.\./main.cpp " "$out/app/build/Makefile" &&
	grep -q "^team_omp__team_omp.o: $out/repo/team/omp/team_omp.c " "$out/app/build/Makefile" ||
	fail "output folder in the application's: main.cpp not relative, or the repository's files not absolute"
mv "$out/app" "$out/moved/app"
mk -C "$out/moved/app/build" > "$out/build2.log" 2>&1 || { cat "$out/build2.log"; fail "make in the moved application"; }
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/moved/app/build/mk_app" | grep -q "^scale: correct$" ||
	fail "the moved application's program"
echo "PASS: makefile"
