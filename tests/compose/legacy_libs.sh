#!/bin/sh
# Real libraries' headers in utility mode (Debian's zlib1g-dev, libblas-dev,
# libgmp-dev, libpcre2-dev and libxml2-dev, and glibc's math.h): zlib.h,
# cblas.h, math.h, gmp.h, pcre2posix.h and libxml2's xpath.h (read with
# -I /usr/include/libxml2) each
# become a tree that composes as generated and builds; their access modes
# follow const; and a program that calls crc32, adler32, compress2 and
# uncompress, or cblas_sgemm, cblas_saxpy and cblas_sdot, or sin, sqrt,
# frexp..., or GMP's mpz functions (which gmp.h declares as __gmpz_mul...,
# under macros of the names programs write), or XPath queries, prints the
# same bits through PEPPHER as with direct calls.
# Whole-library trees that take longer (sqlite3.h, lapacke.h, fftw3.h) are in
# legacy_long.sh (make check-long).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
data="$top_srcdir/tests/compose/data/libs"
work="$top_builddir/tests/out/legacy_libs"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# header NAME LIBS CALLS [FLAGS]: generate, check, compose, build with CALLS
# as the application, run, and compare with CALLS built directly; FLAGS
# (-I, -D) as the header needs them: the skeleton writes them and LIBS
# into its descriptors, so compose and make need no option
header() {
	h=$1 name=$2 libs=$3 calls=$4 flags=${5:-}
	# shellcheck disable=SC2086
	"$COMPOSE" $flags $libs --generate-comp-files="$h" -o "$name" > /dev/null 2> "$name.err" ||
		{ cat "$name.err"; fail "$name: skeleton"; }
	grep -v -e ": warning: " -e "^compose: note: the headers were read with " \
		-e ": note: [0-9]* static functions* left out: " \
		-e "^compose: note: the program is linked with $libs: main.xml's link step has them, for make$" \
		-e "^compose: note: .* keeps state per thread: the [0-9]* CPU variants that call it run on the thread that made the call" \
		"$name.err" &&
		fail "$name: more than warnings"
	# every function gcc sees declared in the header has its interface (once:
	# gmp.h declares its inline functions, then defines them)
	# shellcheck disable=SC2086
	gcc $flags -fsyntax-only -aux-info "$name.aux" -x c "$h" || fail "gcc -aux-info"
	expected=$(declared "$name.aux" "${parts:-$h}" | sort -u | wc -l)
	[ "$(ls "$name"/*.xml | grep -vc main.xml)" -eq "$expected" ] ||
		fail "$name: $(ls "$name"/*.xml | grep -vc main.xml) interfaces for $expected functions"
	# access modes follow const: const T * is read, T * readwrite, by value
	# read; a pointer passed as itself (a handle, a string) is read
	bad=$(grep -h '<peppher:parameter ' "$name"/*.xml | grep -v \
		-e 'type="const [^"]*\*" accessMode="read"' \
		-e 'type="[^"]*[^*]" accessMode="read"' \
		-e 'accessMode="read" byValue="true"' \
		-e 'type="[^"]*\*\*" accessMode="readwrite"' |
		grep -e 'type="const [^"]*" accessMode="readwrite"' -e 'accessMode="read"' -e 'accessMode="write"')
	[ -z "$bad" ] || { echo "$bad" | head; fail "$name: access modes do not follow const"; }
	cp "$data/$calls" "$name/main.c"
	"$COMPOSE" "$name/main.xml" -o "$name-gen" --platforms=CPU > /dev/null 2> "$name-compose.err" ||
		{ cat "$name-compose.err"; fail "$name: compose"; }
	[ -s "$name-compose.err" ] && { cat "$name-compose.err"; fail "$name: composing warns"; }
	make_quiet -C "$name-gen" -j2 > "$name-build.log" 2>&1 ||
		{ tail "$name-build.log"; fail "$name: build"; }
	PEPPHER_NCPU=2 PEPPHER_TRACE="$work/$name.trace" "./$name-gen/${name}_app" > "$name-peppher.out" ||
		fail "$name: the composed program failed"
	# shellcheck disable=SC2086
	gcc -O2 -DDIRECT $flags -o "$name-direct" "$data/$calls" $libs || fail "$name: direct build"
	"./$name-direct" > "$name-direct.out" || fail "$name: the direct program failed"
	diff -u "$name-direct.out" "$name-peppher.out" || fail "$name: results differ from direct calls"
	echo "PASS: $h ($expected functions) composes and builds; the same bits through PEPPHER"
}

# declared AUX FILES: the functions gcc's -aux-info file AUX lists as
# declared in FILES (a grep pattern), less a reserved name declared at the
# place of the name before it: glibc's aliases (one macro declares sin
# and __sin), which utility mode leaves out
declared() {
	grep "^/\* \($2\):" "$1" | sed 's|^/\* \([^ ]*\) \*/ *\([^(]*\)(.*|\1 \2|' |
		awk '{ name = $NF; if (!(name ~ /^__/ && $1 == at)) print name; at = $1 }'
}

system_header() {
	for f in "/usr/include/x86_64-linux-gnu/$1" "/usr/include/$1"; do
		[ -e "$f" ] && { echo "$f"; return; }
	done
}

zlib=$(system_header zlib.h)
if [ -n "$zlib" ]; then
	header "$zlib" zlib -lz zlib_calls.c
	for f in crc32 adler32 compress2 uncompress gzopen; do
		grep -q "\"$f/${f}_cpu\"" zlib.trace || fail "$f did not run as a component"
	done
else
	echo "SKIP: no zlib.h (Debian zlib1g-dev)"
fi
cblas=$(system_header cblas.h)
if [ -n "$cblas" ]; then
	header "$cblas" cblas -lblas cblas_calls.c
	for f in cblas_sgemm cblas_saxpy cblas_sdot cblas_sgemv; do
		grep -q "\"$f/${f}_cpu\"" cblas.trace || fail "$f did not run as a component"
	done
	grep -q 'name="A" type="const float \*" accessMode="read" numElements="M,K"' cblas/cblas_sgemm.xml ||
		fail "cblas_sgemm: A is not guessed M x K"
	# a strided vector spans 1 + (N - 1) * incX elements; gemv's X is one,
	# not a matrix for its capital
	grep -q 'name="X" type="const float \*" accessMode="read" numElements="1 + (N - 1) \* abs(incX)"' cblas/cblas_saxpy.xml &&
		grep -q 'name="X" type="const float \*" accessMode="read" numElements="1 + (N - 1) \* abs(incX)"' cblas/cblas_sgemv.xml ||
		fail "cblas: strided vectors are not guessed 1 + (N - 1) * incX elements"
	# an OpenCL stub runs a work-item per element, not per element spanned
	# (incX 0 ran 1, a negative one 2^64)
	grep -q 'size_t pph_global = N > 0 ? (size_t)(N) : 0;' cblas/cblas_saxpy/opencl/cblas_saxpy_opencl.c ||
		fail "cblas_saxpy: the OpenCL stub's work-items are not N"
	grep -q 'name="B" type="const float \*" accessMode="read" numElements="K,N"' cblas/cblas_sgemm.xml ||
		fail "cblas_sgemm: B is not guessed K x N"
	# which of A's rows and columns lda separates, the call's layout and
	# transposes say: a FIXME, not a guess; N and incX are no such pair
	grep -q "FIXME: 'A' is a matrix whose rows or columns are 'lda' elements apart" cblas/cblas_sgemm.xml ||
		fail "cblas_sgemm: A's leading dimension is not marked FIXME"
	! grep -q "elements apart:" cblas/cblas_saxpy.xml || fail "cblas_saxpy: a vector marked as a matrix"
else
	echo "SKIP: no cblas.h (Debian libblas-dev)"
fi
gmp=$(system_header gmp.h)
if [ -n "$gmp" ]; then
	header "$gmp" gmp -lgmp gmp_calls.c
	for f in mpz_mul_ui mpz_fib_ui mpz_mul mpz_nextprime mpz_gcd mpz_powm_ui mpz_sqrt mpz_get_str; do
		grep -q "\"$f/${f}_cpu\"" gmp.trace || fail "$f did not run as a component"
	done
	grep -q '<peppher:interface name="mpz_mul" .* wrap="true" symbol="__gmpz_mul"' gmp/mpz_mul.xml ||
		fail "mpz_mul does not wrap __gmpz_mul"
	grep -q -- '-Wl,--wrap=__gmpz_mul ' gmp-gen/Makefile || fail "the link does not wrap __gmpz_mul"
else
	echo "SKIP: no gmp.h (Debian libgmp-dev)"
fi
# glibc's math.h declares its functions in <bits/mathcalls.h>, which
# refuses to be included on its own; gcc expands sqrt, fabs and floor
# inline and turns sin and cos of one value into sincos unless the
# program is compiled with -fno-builtin-NAME (the Makefile does)
math=$(system_header math.h)
if [ -n "$math" ]; then
	parts=$(system_header bits/mathcalls.h)
	header "$math" math -lm math_calls.c
	parts=
	for f in sin cos exp log pow sqrt fabs floor frexp modf atan2 sinf; do
		grep -q "\"$f/${f}_cpu\"" math.trace || fail "$f did not run as a component"
	done
	grep -q 'fno-builtin-sqrt' math-gen/Makefile || fail "the Makefile leaves sqrt a builtin"
	[ "$(grep -c "__sin.*reserved" math.err)" -eq 0 ] || fail "math.h: warnings for glibc's aliases"
else
	echo "SKIP: no math.h"
fi
# pcre2posix.h has no include guard (a program that includes it, then
# peppher.h, must not get it twice) and renames regcomp... to
# pcre2_regcomp... after declaring them
pcre2posix=$(system_header pcre2posix.h)
if [ -n "$pcre2posix" ]; then
	header "$pcre2posix" pcre2posix -lpcre2-posix pcre2posix_calls.c
	for f in pcre2_regcomp pcre2_regexec pcre2_regfree; do
		grep -q "\"$f/${f}_cpu\"" pcre2posix.trace || fail "$f did not run as a component"
	done
else
	echo "SKIP: no pcre2posix.h (Debian libpcre2-dev)"
fi
# a header whose own includes need -I (libxml2's <libxml/...>): the stubs
# include it as <libxml/xpath.h>, below the -I folder
xpath=/usr/include/libxml2/libxml/xpath.h
if [ -e "$xpath" ]; then
	header "$xpath" xpath -lxml2 xpath_calls.c "-I/usr/include/libxml2"
	for f in xmlXPathNewContext xmlXPathEvalExpression xmlXPathCastToString xmlXPathCastToNumber xmlXPathFreeObject; do
		grep -q "\"$f/${f}_cpu\"" xpath.trace || fail "$f did not run as a component"
	done
	grep -q 'include="libxml/xpath.h"' xpath/xmlXPathNewContext.xml || fail "xpath.h is not included as <libxml/xpath.h>"
else
	echo "SKIP: no $xpath (Debian libxml2-dev)"
fi
