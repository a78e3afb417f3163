#!/bin/sh
# make CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)", Debian's standard
# flags, builds CUDA variants: nvcc stopped at -Wdate-time ("nvcc fatal :
# Unknown option").  It hands the options it does not know to the host
# compiler whole: -Wp,-DVIA_WP=1,-DVIA_WP2=1 reaches it, or the CUDA
# source of tests/compose/data/makefile stops with an #error.  Needs nvcc.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
. "$top_srcdir/tests/platforms.sh"
need_platforms "the variant built by nvcc, and the team variant" CUDA OPENMP
out="$top_builddir/tests/out/makefile_nvcc"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
cp -R "$top_srcdir/tests/compose/data/makefile/app" "$top_srcdir/tests/compose/data/makefile/repo" "$out"
chmod -R u+w "$out"
"$COMPOSE" --platforms=CPU,OPENMP,CUDA -R "$out/repo" "$out/app/main.xml" -o "$out/gen" || fail "compose"
grep -q "^scale_cuda__scale_cuda.o:" "$out/gen/Makefile" || fail "no CUDA variant"
cppflags="-Wdate-time -D_FORTIFY_SOURCE=2 -Wp,-DVIA_WP=1,-DVIA_WP2=1 -DMAKEFILE_NVCC_TEST"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$out/gen" CPPFLAGS="$cppflags" > "$out/build.log" 2>&1 ||
	{ cat "$out/build.log"; fail "make CPPFLAGS='$cppflags'"; }
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/gen/mk_app" > "$out/run.log" 2>&1 ||
	{ cat "$out/run.log"; fail "the program"; }
cat "$out/run.log"
grep -q "^scale: correct$" "$out/run.log" || fail "wrong result"
echo "PASS: makefile_nvcc"
