#!/bin/sh
# make check-long: whole-library headers in utility mode (Debian's
# libsqlite3-dev, libfftw3-dev, liblapacke-dev, and below the ones that
# once broke): each generates, composes
# as generated and builds, every CPU variant linked with the library it
# calls.  Functions a header declares that the library lacks (SQLite's
# optional ones, Windows-only ones, LAPACKE's XBLAS ones) are left out of
# main.xml, as a user would (each argument after LIBS: a sed pattern of
# names).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
work="$top_builddir/tests/out/legacy_long"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# library NAME LIBS [FUNCTIONS THE LIBRARY LACKS]: NAME.h below /usr/include
# (or its multiarch folder); $lib_flags: -I and -D options it needs, for the
# skeleton, which writes them into the descriptors (compose and make need none)
lib_flags=
library() {
	name=$(basename "$1") libs=${2:-} h=
	for d in /usr/include /usr/include/x86_64-linux-gnu; do
		[ -e "$d/$1.h" ] && { h=$d/$1.h; break; }
	done
	shift
	[ $# -gt 0 ] && shift
	[ -n "$h" ] || { echo "SKIP: no $name.h"; return; }
	# shellcheck disable=SC2086
	"$COMPOSE" $lib_flags --generate-comp-files="$h" -o "$name" > /dev/null 2> "$name.err" ||
		{ cat "$name.err"; fail "$name: skeleton"; }
	for f in "$@"; do
		sed -i "/requiredInterface name=\"$f\"/d" "$name/main.xml"
	done
	"$COMPOSE" "$name/main.xml" -o "$name-gen" --platforms=CPU,OPENMP > /dev/null 2> "$name-compose.err" ||
		{ head "$name-compose.err"; fail "$name: compose"; }
	make_quiet -C "$name-gen" -j2 LDLIBS="$libs" > "$name-build.log" 2>&1 ||
		{ grep -m5 "error" "$name-build.log"; fail "$name: build"; }
	PEPPHER_NCPU=1 PEPPHER_HOME="$work/home" "./$name-gen/${name}_app" || fail "$name: run"
	echo "PASS: $h ($(grep -c '<peppher:requiredInterface ' "$name/main.xml") interfaces) composes and builds"
}

# with_libs NAME LIBS ...: library, generated with LIBS too (the skeleton
# then leaves out what the library lacks, and reads its ELF file)
with_libs() {
	lib_flags=$2
	library "$@"
	lib_flags=
}
library sqlite3 -lsqlite3 sqlite3_win32_set_directory sqlite3_win32_set_directory8 \
	sqlite3_win32_set_directory16 sqlite3_mutex_held sqlite3_mutex_notheld \
	sqlite3_stmt_scanstatus sqlite3_stmt_scanstatus_reset sqlite3_snapshot_get \
	sqlite3_snapshot_open sqlite3_snapshot_free sqlite3_snapshot_cmp sqlite3_snapshot_recover
library fftw3 "-lfftw3_threads -lfftw3f_threads -lfftw3l_threads -lfftw3 -lfftw3f -lfftw3l -lm"
# Debian's LAPACKE is built without the extra-precise (XBLAS) routines
library lapacke "-llapacke" 'LAPACKE_[cdsz][a-z][a-z]\(rfsx\|svxx\)\(_work\)\{0,1\}'
# headers whose trees did not compose (tests/compose/legacy_headers.sh has
# each way they broke): names differing in case only (bzlib), array and
# restrict parameters (png), <stdio.h> left to the includer (jpeglib),
# umbrella headers (lzma, z3), functions returning or writing function
# pointers (openssl's evp), glibc's reserved parameter names (dirent)
library bzlib -lbz2
library png -lpng16
library jpeglib -ljpeg
library lzma -llzma
library z3 -lz3
library openssl/evp -lcrypto
library dirent
# declared under other names than programs write (gmp.h's "#define mpz_add
# __gmpz_add"), needing -D (pcre2.h) or -I (libxml2's headers), and more
# of Debian's scientific and system libraries
library gmp -lgmp
# MPFR keeps its flags, exponent range and default precision per thread
# (thread-local storage): mpfr_set_default_prec on the program's thread,
# then mpfr_init on a worker, gave the worker's 53 bits.  Generated with its
# -l options, which utility mode reads the library's ELF file from
with_libs mpfr "-lmpfr -lgmp"
grep -q 'callerThread="true"' mpfr/mpfr_set_default_prec/cpu/mpfr_set_default_prec_cpu.xml ||
	fail "mpfr: its CPU variants may run on any thread"
library curl/curl -lcurl
library gsl/gsl_linalg "-lgsl -lgslcblas -lm"
library uv -luv
lib_flags=-DPCRE2_CODE_UNIT_WIDTH=8
library pcre2 "-lpcre2-8 -lpcre2-16 -lpcre2-32"
lib_flags=-I/usr/include/libxml2
library libxml2/libxml/tree -lxml2
lib_flags=
# glibc's headers whose functions are declared in their private parts
# (complex.h's in <bits/cmathcalls.h>, unistd.h's getopt in
# <bits/getopt_core.h>, signal.h's pthread_sigmask in <bits/sigthread.h>)
library complex -lm
library fenv -lm
library getopt
library signal
library unistd -lcrypt
# types descriptors could not take: X11's noreturn handlers
# (XtAppSetErrorMsgHandler) and pointer to a typedef-named enum
# (XrmStringToBindingQuarkList), openssl's callback taking a pointer to
# arrays (CRYPTO_ocb128_new)
library X11/Intrinsic "-lXt -lX11"
library X11/Xresource -lX11
library openssl/modes -lcrypto
# scientific data, sparse solvers and other libraries HPC programs call:
# HDF5 (from its serial folder), NetCDF, SuiteSparse's CHOLMOD and UMFPACK,
# and libyaml, jansson, libsodium, libtiff, FLAC, libwebp.  Generated with
# their -L and -l options, as doc/legacy.md says: utility mode leaves out
# what the headers declare and the libraries lack (HDF5's H5Treclaim,
# libsodium's internal _sodium_* functions, libtiff's LogLuv ones)
with_libs hdf5/serial/hdf5 "-L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5"
with_libs netcdf -lnetcdf
with_libs suitesparse/cholmod "-lcholmod -lsuitesparseconfig"
# CHOLMOD opens OpenMP regions: fork-join variants (composed with OPENMP
# among the platforms)
grep -q '<peppher:targetPlatform name="OPENMP"/>' cholmod/cholmod_start/cpu/cholmod_start_cpu.xml ||
	fail "cholmod: its CPU variants are no fork-join ones"
with_libs suitesparse/umfpack "-lumfpack -lamd -lsuitesparseconfig"
with_libs yaml -lyaml
with_libs jansson -ljansson
with_libs sodium -lsodium
with_libs tiffio -ltiff
with_libs FLAC/stream_encoder -lFLAC
with_libs webp/encode -lwebp
# hwloc: a pointer typedef qualified restrict ("hwloc_topology_t
# __hwloc_restrict topology"), written "restrict hwloc_topology_t" into
# descriptors compose refused
with_libs hwloc -lhwloc
# ncurses: libncurses.so is a GNU ld script ("INPUT(libncurses.so.6
# -ltinfo)"), which was not looked into: the functions only the wide
# library has (slk_attr_off, alloc_pair) did not link
with_libs ncurses -lncurses
# parts beside the header: tcl.h's "tclDecls.h" (its 633 functions were
# left out, as curl.h's "easy.h" and "multi.h" were; Tcl_InitStubs and the
# like are for programs that link Tcl's stub library: left out, said)
with_libs tcl/tcl -ltcl
# MPI: callbacks typed as pointers to typedef'd function types
# (MPI_Comm_errhandler_function *), which read as data
library openmpi/mpi -lmpi
# Python's C API (read with -I; Debian's libpython3 lacks
# PySignal_SetWakeupFd, which Python.h declares)
py=$(ls -d /usr/include/python3.*/ 2>/dev/null | head -n 1)
if [ -n "$py" ]; then
	lib_flags=-I$py
	library "$(basename "$py")/Python" "-l$(basename "$py")" PySignal_SetWakeupFd
	lib_flags=
fi
