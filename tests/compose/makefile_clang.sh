#!/bin/sh
# make CC=clang CXX=clang++ links LLVM's libomp, the OpenMP runtime of the
# compiler in use, and only it: the program loaded libgomp too, which
# libpeppher sized and pinned the teams of while the variants' regions ran
# on libomp, on one thread each.  Then CC=clang CFLAGS="-O2 -flto": the
# objects are LLVM bitcode, which links only with -flto on the link line
# (CFLAGS there too).  Needs clang with OpenMP (libomp).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
. "$top_srcdir/tests/platforms.sh"
need_platforms "the team variant" OPENMP
out="$top_builddir/tests/out/makefile_clang"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n' > "$out/omp.c"
command -v clang > /dev/null && command -v clang++ > /dev/null &&
	clang -fopenmp "$out/omp.c" -o "$out/omp" 2> /dev/null && "$out/omp" ||
	{ echo "skipped: no clang with OpenMP (clang, clang++, libomp)"; exit 77; }
cp -R "$top_srcdir/tests/compose/data/makefile/app" "$top_srcdir/tests/compose/data/makefile/repo" "$out"
chmod -R u+w "$out"
"$COMPOSE" --platforms=CPU,OPENMP -R "$out/repo" "$out/app/main.xml" -o "$out/gen" || fail "compose"
mk -C "$out/gen" CC=clang CXX=clang++ > "$out/build.log" 2>&1 ||
	{ cat "$out/build.log"; fail "make CC=clang CXX=clang++"; }
needed=$(readelf -d "$out/gen/mk_app" | sed -n 's/.*NEEDED.*\[\(lib[a-z0-9]*\).*/\1/p' | tr '\n' ' ')
echo "NEEDED: $needed"
case " $needed" in *" libgomp "*) fail "CC=clang: libgomp linked" ;; esac
case " $needed" in
*" libomp "*"libpeppher "*) ;;
*) fail "CC=clang: libomp is not named before libpeppher" ;;
esac
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_SCHED=eager "$out/gen/mk_app" > "$out/run.log" 2>&1 ||
	{ cat "$out/run.log"; fail "the program"; }
cat "$out/run.log"
grep -q "^scale: correct$" "$out/run.log" || fail "scale: wrong result"
grep -q "^team: 2 OpenMP threads in a team of 2$" "$out/run.log" ||
	fail "CC=clang: the OpenMP variant's region did not have its team's threads"

# LTO: bitcode objects link when the linker has CFLAGS' -flto
mk -C "$out/gen" clean
if clang -flto -fuse-ld=lld "$out/omp.c" -fopenmp -o "$out/omp" 2> /dev/null ||
	clang -flto "$out/omp.c" -fopenmp -o "$out/omp" 2> /dev/null; then
	mk -C "$out/gen" CC=clang CFLAGS="-O2 -flto" > "$out/lto.log" 2>&1 ||
		{ cat "$out/lto.log"; fail "make CC=clang CFLAGS='-O2 -flto'"; }
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/gen/mk_app" | grep -q "^scale: correct$" ||
		fail "CFLAGS=-flto: the program"
else
	echo "clang -flto links nothing here (no LLVM gold plugin or lld): not tried"
fi
echo "PASS: makefile_clang"
