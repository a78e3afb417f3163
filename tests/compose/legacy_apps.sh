#!/bin/sh
# Programs nobody here wrote, the examples Debian ships
# with liblzma-dev, libexpat1-dev, libpng-dev, zlib1g-dev, nettle-dev,
# libidn2-dev, libzstd-dev, libsndfile1-dev, libsundials-dev, libnlopt-dev and libarchive-dev (libpng's pngtest.c and
# zlib's example.c, their own tests, among them), PEPPHER-ized as doc/legacy.md says: the tree generated from
# the library's header (its -l options given there: main.xml links them), the program as its main.c with the three lines
# (peppher.h, PEPPHER_INITIALIZE, PEPPHER_SHUTDOWN) and nothing else
# changed.  Each prints, exits and writes what it does built directly, and
# its library calls ran as components; composed for StarPU too.
#
# make check runs five of them, one per kind of program (stdin to stdout
# over zlib.h, names a header renames with #define, a file written, the
# program called back from inside a component); LEGACY_APPS=all (make
# check-long) runs them all: each tree builds every function of its header
# twice, 30 minutes for all of them on two cores.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
work="$top_builddir/tests/out/legacy_apps"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# The three lines: peppher.h before main's definition (after a return type
# on a line of its own), PEPPHER_INITIALIZE() first in main, and
# PEPPHER_SHUTDOWN() at exit, whichever way the program ends.
three_lines() {
	awk '
	function head() {
		print "#include <stdlib.h>"
		print "#include \"peppher.h\""
		print "static void stop_peppher(void) { PEPPHER_SHUTDOWN(); }"
	}
	done == 0 && /^main *\(/ { if (held != "") { head(); print held; held = "" } else head(); inmain = 1 }
	done == 0 && /^(int|extern int) +main *\(/ { head(); inmain = 1 }
	{ if (held != "") { print held; held = "" } }
	done == 0 && inmain == 0 && /^(extern )?int$/ { held = $0; next }
	# right after the "{" of main: what follows it on its line (sfprocess.c
	# opens a comment there) comes after the two lines
	inmain == 1 && done == 0 && /\{/ {
		i = index($0, "{")
		print substr($0, 1, i)
		print "\tPEPPHER_INITIALIZE();"
		print "\tatexit(stop_peppher);"
		if (substr($0, i + 1) ~ /[^ \t]/)
			print "\t" substr($0, i + 1)
		done = 1
		next
	}
	{ print }
	' "$1"
}

# app NAME HEADER SOURCE LIBS FUNCTION INPUT ARGS...: FUNCTION must have run
# as a component; INPUT is the program's standard input.  $app_cppflags:
# options the program builds with (zstd's examples include their
# common.h); $app_files: files the program writes, which must be the same
# bytes both ways.
app_cppflags= app_files=
quick="zpipe sha_example idn2_decode make_sine cvode_robertson"
app() {
	name=$1 h=$2 src=$3 libs=$4 fn=$5 input=$6
	shift 6
	case " $quick " in
	*" $name "*) ;;
	*) [ "${LEGACY_APPS:-}" = all ] || return 0 ;;
	esac
	[ -e "${h%%,*}" ] && [ -e "$src" ] || { echo "SKIP: $name: no $h or $src"; return; }
	# shellcheck disable=SC2086
	"$COMPOSE" $libs --generate-comp-files="$h" -o "$name" > /dev/null 2> "$name.gen.err" ||
		{ cat "$name.gen.err"; fail "$name: skeleton"; }
	three_lines "$src" > "$name/main.c"
	grep -q "PEPPHER_INITIALIZE" "$name/main.c" || fail "$name: no main found in $src"
	"$COMPOSE" "$name/main.xml" -o "$name-gen" --platforms=CPU > /dev/null 2> "$name.compose.err" ||
		{ cat "$name.compose.err"; fail "$name: compose"; }
	make_quiet -C "$name-gen" -j2 CPPFLAGS="$app_cppflags" > "$name.build.log" 2>&1 ||
		{ grep -m5 error "$name.build.log"; fail "$name: build"; }
	# shellcheck disable=SC2086
	gcc -O2 -w $app_cppflags -o "$name-direct" "$src" $libs || fail "$name: direct build"
	"./$name-direct" "$@" < "$input" > "$name.direct.out" 2> /dev/null
	drc=$?
	for f in $app_files; do
		mv "$f" "$f.direct" || fail "$name: built directly, it wrote no $f"
	done
	PEPPHER_STATS=1 "./$name-gen/"*_app "$@" < "$input" > "$name.out" 2> "$name.err"
	prc=$?
	[ $drc -eq $prc ] || fail "$name: exit status $prc, $drc built directly"
	cmp -s "$name.direct.out" "$name.out" || fail "$name: output differs from the program built directly"
	for f in $app_files; do
		cmp -s "$f.direct" "$f" || fail "$name: $f differs from the one written built directly"
	done
	grep -q "^    $fn/${fn}_cpu: " "$name.err" || fail "$name: $fn did not run as a component"
	# and composed for StarPU (libpeppher-starpu), the same
	if pkg-config --exists peppher-starpu; then
		"$COMPOSE" "$name/main.xml" -o "$name-starpu" --platforms=CPU --runtime=starpu \
			> /dev/null 2> "$name.starpu.err" || { cat "$name.starpu.err"; fail "$name: compose for StarPU"; }
		make_quiet -C "$name-starpu" -j2 CPPFLAGS="$app_cppflags" > "$name.starpu.log" 2>&1 ||
			{ grep -m5 error "$name.starpu.log"; fail "$name: build for StarPU"; }
		STARPU_SILENT=1 STARPU_HOME="$work/starpu-home" "./$name-starpu/"*_app "$@" < "$input" \
			> "$name.starpu.out" 2> "$name.starpu.err"
		src_rc=$?
		[ $drc -eq $src_rc ] || { tail -3 "$name.starpu.err"; fail "$name: exit status $src_rc over StarPU, $drc built directly"; }
		cmp -s "$name.direct.out" "$name.starpu.out" || fail "$name: output over StarPU differs"
	fi
	echo "PASS: $name ($(basename "$src")): the same $(wc -c < "$name.out") bytes${app_files:+ and the same $app_files}, $(sed -n 's|^    \([^/]*\)/.*|\1|p' "$name.err" | sort -u | wc -l) library functions run as components$(pkg-config --exists peppher-starpu && echo '; over StarPU too')"
}

doc=/usr/share/doc
lzma=$doc/liblzma-dev/examples
cat "$top_srcdir"/compose/*.c > text
app lzma_compress /usr/include/lzma.h "$lzma/01_compress_easy.c" -llzma lzma_code text 6
app lzma_decompress /usr/include/lzma.h "$lzma/02_decompress.c" -llzma lzma_code /dev/null lzma_compress.out
[ ! -e lzma_decompress.out ] || cmp -s text lzma_decompress.out || fail "lzma: the round trip lost data"
app lzma_compress_mt /usr/include/lzma.h "$lzma/04_compress_easy_mt.c" -llzma lzma_code text
xml="$top_srcdir/tests/compose/data/golden/basic/main.xml"
app expat_outline /usr/include/expat.h "$doc/libexpat1-dev/examples/outline.c" -lexpat XML_ParseBuffer "$xml"
app expat_elements /usr/include/expat.h "$doc/libexpat1-dev/examples/elements.c" -lexpat XML_ParseBuffer "$xml"
if [ "${LEGACY_APPS:-}" = all ] && [ -e "$doc/libpng-dev/examples/pngtest.png" ]; then
	cp "$doc/libpng-dev/examples/pngtest.png" .
	app pngtest /usr/include/png.h "$doc/libpng-dev/examples/pngtest.c" "-lpng16 -lz -lm" \
		png_read_info /dev/null pngtest.png pngout.png
	# on a corrupt file libpng's error handler leaves the library call by
	# longjmp: under libpeppher the call ran on the calling thread, and the
	# runtime ends its task at the next call (not over StarPU, whose calls
	# run on workers: doc/legacy.md)
	cp pngtest.png bad.png
	off=$(grep -obUa IDAT bad.png | head -n 1 | cut -d: -f1)
	printf '\377\377\377\377' | dd of=bad.png bs=1 seek=$((off + 40)) conv=notrunc 2> /dev/null
	./pngtest-direct bad.png pngout.png > bad.direct.out 2> /dev/null
	drc=$?
	./pngtest-gen/*_app bad.png pngout.png > bad.out 2> bad.err
	[ $? -eq $drc ] && [ $drc -ne 0 ] || fail "pngtest on a corrupt file: exit status $drc built directly, not the same composed"
	cmp -s bad.direct.out bad.out || fail "pngtest on a corrupt file: output differs from the program built directly"
	grep -q "left without returning (longjmp)" bad.err || fail "pngtest on a corrupt file: no call left by longjmp"
	! grep -q "refused" bad.err || fail "pngtest on a corrupt file: $(grep refused bad.err)"
	echo "PASS: pngtest on a corrupt file: the same output and exit status, $(grep -c 'left without returning' bad.err) calls left by longjmp ended"
fi
zlib=$doc/zlib1g-dev/examples
app zpipe /usr/include/zlib.h "$zlib/zpipe.c" -lz deflate text
app zlib_example /usr/include/zlib.h "$zlib/example.c" -lz inflateSync /dev/null
app minigzip /usr/include/zlib.h "$zlib/minigzip.c" -lz gzwrite text
# nettle's sha1.h declares nettle_sha1_update under "#define sha1_update
# nettle_sha1_update": the interface takes the name programs write
app sha_example /usr/include/nettle/sha1.h "$doc/nettle-dev/examples/sha-example.c" -lnettle \
	sha1_update text
echo "xn--bcher-kva.example" > name
app idn2_decode /usr/include/idn2.h "$doc/libidn2-dev/examples/decode.c" -lidn2 idn2_to_unicode_lzlz name
# zstd's examples: a round trip through a file, in one call and streamed
zstd=$doc/libzstd-dev/examples
app_cppflags="-I$zstd" app_files=text.zst
app zstd_compress /usr/include/zstd.h "$zstd/simple_compression.c" -lzstd ZSTD_compress /dev/null text
app_files=
app zstd_decompress /usr/include/zstd.h "$zstd/simple_decompression.c" -lzstd ZSTD_decompress /dev/null text.zst
app_files=text.zst
app zstd_stream /usr/include/zstd.h "$zstd/streaming_compression.c" -lzstd ZSTD_compressStream2 /dev/null text
app_files=
app zstd_unstream /usr/include/zstd.h "$zstd/streaming_decompression.c" -lzstd ZSTD_decompressStream /dev/null text.zst
[ ! -e zstd_unstream.out ] || cmp -s text zstd_unstream.out || fail "zstd: the streamed round trip lost data"
app_cppflags= app_files=
# libsndfile's examples: a sine written, processed, and printed as text
sndfile=$doc/libsndfile1-dev/examples
app_files=sine.wav
app make_sine /usr/include/sndfile.h "$sndfile/make_sine.c" "-lsndfile -lm" sf_write_int /dev/null
[ ! -e sine.wav ] || cp sine.wav input.wav
app_files=output.wav
app sfprocess /usr/include/sndfile.h "$sndfile/sfprocess.c" -lsndfile sf_read_double /dev/null
app_files=output.txt
app sndfile_to_text /usr/include/sndfile.h "$sndfile/sndfile-to-text.c" -lsndfile sf_readf_float /dev/null \
	output.wav output.txt
app_files=
# SUNDIALS' examples: the Brusselator (the paper's ODE test problem, stiff
# here) integrated by ARKode's ARKStep, and Robertson's kinetics by CVODE.
# The library calls the program's right-hand side and Jacobian back from
# inside the component; the output is the one SUNDIALS ships with them too.
sun=$doc/libsundials-dev/examples
sunlibs="-lsundials_nvecserial -lsundials_sunmatrixdense -lsundials_sunlinsoldense -lm"
app_files=solution.txt
app ark_brusselator /usr/include/arkode/arkode_arkstep.h "$sun/arkode/C_serial/ark_brusselator.c" \
	"-lsundials_arkode $sunlibs" ARKStepEvolve /dev/null
app_files=
app cvode_robertson /usr/include/cvode/cvode.h "$sun/cvode/serial/cvRoberts_dns.c" \
	"-lsundials_cvode $sunlibs" CVode /dev/null
# ark_heat1D.c's right-hand side calls N_Vector functions too: with them
# in the tree (two headers), components run inside ARKStepEvolve's, called
# back by the library
app_files="heat_mesh.txt heat1D.txt"
app ark_heat1D /usr/include/arkode/arkode_arkstep.h,/usr/include/sundials/sundials_nvector.h \
	"$sun/arkode/C_serial/ark_heat1D.c" "-lsundials_arkode -lsundials_nvecserial -lsundials_sunlinsolpcg -lm" \
	N_VConst /dev/null
app_files=
if [ -e ark_heat1D.err ]; then
	nested=$(sed -n 's|^    N_VConst/N_VConst_cpu: \([0-9]*\) tasks.*|\1|p' ark_heat1D.err | awk '{ n += $1 } END { print n + 0 }')
	[ "$nested" -gt 1000 ] || fail "ark_heat1D: $nested N_VConst components, not those of each right-hand side"
	echo "PASS: ark_heat1D: $nested N_VConst components, most from the right-hand side inside ARKStepEvolve's"
fi
for ex in ark_brusselator:arkode/C_serial/ark_brusselator cvode_robertson:cvode/serial/cvRoberts_dns \
	ark_heat1D:arkode/C_serial/ark_heat1D; do
	[ -e "${ex%%:*}.out" ] || continue
	cmp -s "${ex%%:*}.out" "$sun/${ex#*:}.out" ||
		fail "${ex%%:*}: output differs from the one SUNDIALS ships ($sun/${ex#*:}.out)"
done
# NLopt's box.c: COBYLA under six constraints, objective and constraints
# called back by the library from inside the component
app nlopt_box /usr/include/nlopt.h "$doc/libnlopt-dev/examples/box.c" "-lnlopt -lm" \
	nlopt_minimize_constrained /dev/null
# libarchive's untar.c: a tar listed, then extracted (archive_entry.h's
# functions stay direct calls: only archive.h's tree is composed)
if [ -e output.txt ]; then
	mkdir -p tree && cp text tree/text && cp output.txt tree/sine.txt && tar cf tree.tar tree && rm -r tree
fi
untar=$doc/libarchive-dev/examples/untar.c
app untar_list /usr/include/archive.h "$untar" -larchive archive_read_next_header /dev/null -tf tree.tar
app_files="tree/text tree/sine.txt"
app untar /usr/include/archive.h "$untar" -larchive archive_read_data_block /dev/null -xf tree.tar
[ ! -e untar.out ] || cmp -s text tree/text || fail "untar: the extracted file differs from the one archived"
app_files=
# An MPI program: CVODE's parallel advection-diffusion example on 2 ranks
# (mpicc, mpirun), each rank's library calls components of its own, the
# output the one SUNDIALS ships; PEPPHER_INITIALIZE() comes before the
# program's MPI_Init, and no rank is warned that the program is not built
# for MPI
mpi_ex=$sun/cvode/parallel/cvAdvDiff_non_p
if [ "${LEGACY_APPS:-}" = all ] && [ -e "$mpi_ex.c" ] && command -v mpicc > /dev/null &&
	command -v mpirun > /dev/null; then
	mpirun="mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2"
	"$COMPOSE" -lsundials_cvode -lsundials_nvecparallel -lm --generate-comp-files=/usr/include/cvode/cvode.h \
		-o cv_mpi > /dev/null 2> cv_mpi.gen.err || { cat cv_mpi.gen.err; fail "cv_mpi: skeleton"; }
	three_lines "$mpi_ex.c" > cv_mpi/main.c
	"$COMPOSE" cv_mpi/main.xml -o cv_mpi-gen --platforms=CPU > /dev/null 2> cv_mpi.compose.err ||
		{ cat cv_mpi.compose.err; fail "cv_mpi: compose"; }
	make_quiet -C cv_mpi-gen -j2 CC=mpicc > cv_mpi.build.log 2>&1 ||
		{ grep -m5 error cv_mpi.build.log; fail "cv_mpi: build with mpicc"; }
	PEPPHER_STATS=1 timeout 120 $mpirun ./cv_mpi-gen/cvode_app > cv_mpi.out 2> cv_mpi.err ||
		{ tail cv_mpi.err; fail "cv_mpi: the composed program on 2 ranks failed"; }
	cmp -s cv_mpi.out "$mpi_ex.out" || fail "cv_mpi: output differs from the one SUNDIALS ships ($mpi_ex.out)"
	[ "$(grep -c '^    CVode/CVode_cpu: ' cv_mpi.err)" -eq 2 ] || fail "cv_mpi: CVode did not run as a component on both ranks"
	! grep -q "not built for MPI" cv_mpi.err || fail "cv_mpi: warned that it is not built for MPI"
	echo "PASS: cv_mpi (cvAdvDiff_non_p.c) on 2 MPI ranks: the output SUNDIALS ships, CVode a component on each rank"
fi
[ "${LEGACY_APPS:-}" = all ] || echo "(make check-long runs the other programs: LEGACY_APPS=all)"
