#!/bin/sh
# Programs nobody here wrote, the examples Debian ships with liblzma-dev,
# libexpat1-dev, libpng-dev, zlib1g-dev, nettle-dev, libidn2-dev,
# libzstd-dev, libsndfile1-dev, libsundials-dev, libnlopt-dev,
# libarchive-dev, libvorbis-dev, libjpeg62-turbo-dev, libstemmer0d,
# libjansson4 and libgit2-dev (libpng's pngtest.c and zlib's example.c,
# their own tests, and libgit2's lg2, 30 sources, among them), and PETSc's
# tutorials where PETSc is installed, PEPPHER-ized as doc/legacy.md says:
# the tree generated from the library's header (its -l options given
# there: main.xml links them), the program as its main.c with the three
# lines (peppher.h, PEPPHER_INITIALIZE, PEPPHER_SHUTDOWN) and nothing else
# changed.  Each prints, exits and writes what it does built directly, and
# its library calls ran as components; composed for StarPU too.
#
# make check runs six of them, one per kind of program (stdin to stdout
# over zlib.h, names a header renames with #define, a file written, the
# program called back from inside a component, a library that keeps its
# last error per thread); LEGACY_APPS=all (make
# check-long) runs them all: each tree builds every function of its header
# twice, 40 minutes for all of them on two cores; LEGACY_APPS="NAME..."
# runs those named.
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
# bytes both ways; $app_compare: a command both outputs go through before
# they are compared (a stream whose bytes hold a random number: decoded).
app_cppflags= app_files= app_compare=
# same_output A B: the outputs A and B are the same (through $app_compare)
same_output() {
	[ -n "$app_compare" ] || { cmp -s "$1" "$2"; return; }
	$app_compare < "$1" > "$1.compared" 2> /dev/null && $app_compare < "$2" > "$2.compared" 2> /dev/null &&
		cmp -s "$1.compared" "$2.compared"
}
quick="zpipe sha_example idn2_decode make_sine cvode_robertson tjcompress"
# wanted NAME: whether NAME runs (make check: the quick ones;
# LEGACY_APPS=all: all of them; LEGACY_APPS="NAME...": those)
wanted() {
	case ${LEGACY_APPS:-} in
	all) return 0 ;;
	"") set -- "$1" "$quick" ;;
	*) set -- "$1" "$LEGACY_APPS" ;;
	esac
	case " $2 " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
app() {
	name=$1 h=$2 src=$3 libs=$4 fn=$5 input=$6
	shift 6
	wanted "$name" || return 0
	[ -e "${h%%,*}" ] && [ -e "$src" ] || { echo "SKIP: $name: no $h or $src"; return; }
	tree "$name" "$h" "$libs" "$src" CPPFLAGS="$app_cppflags"
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
	same_output "$name.direct.out" "$name.out" || fail "$name: output differs from the program built directly"
	for f in $app_files; do
		cmp -s "$f.direct" "$f" || fail "$name: $f differs from the one written built directly"
	done
	grep -q "^    $fn/${fn}_cpu: " "$name.err" || fail "$name: $fn did not run as a component"
	# and composed for StarPU (libpeppher-starpu), the same
	if pkg-config --exists peppher-starpu; then
		"$COMPOSE" "$name/main.xml" -o "$name-starpu" --platforms=CPU,OPENMP --runtime=starpu \
			> /dev/null 2> "$name.starpu.err" || { cat "$name.starpu.err"; fail "$name: compose for StarPU"; }
		make_quiet -C "$name-starpu" -j2 CPPFLAGS="$app_cppflags" > "$name.starpu.log" 2>&1 ||
			{ grep -m5 error "$name.starpu.log"; fail "$name: build for StarPU"; }
		STARPU_SILENT=1 STARPU_HOME="$work/starpu-home" "./$name-starpu/"*_app "$@" < "$input" \
			> "$name.starpu.out" 2> "$name.starpu.err"
		src_rc=$?
		[ $drc -eq $src_rc ] || { tail -3 "$name.starpu.err"; fail "$name: exit status $src_rc over StarPU, $drc built directly"; }
		same_output "$name.direct.out" "$name.starpu.out" || fail "$name: output over StarPU differs"
	fi
	echo "PASS: $name ($(basename "$src")): the same $(wc -c < "$name.out") bytes${app_files:+ and the same $app_files}, $(sed -n 's|^    \([^/]*\)/.*|\1|p' "$name.err" | sort -u | wc -l) library functions run as components$(pkg-config --exists peppher-starpu && echo '; over StarPU too')"
}

# tree NAME HEADER LIBS SOURCE [MAKE_ARGS...]: the tree of HEADER (LIBS:
# its -I, -L and -l options), SOURCE its main.c and the files in
# $tree_sources beside it (the .c ones named in main.xml, as a user names
# a program's other sources), composed and built with MAKE_ARGS
tree_sources=
tree() {
	name=$1 h=$2 libs=$3 src=$4
	shift 4
	# shellcheck disable=SC2086
	"$COMPOSE" $libs --generate-comp-files="$h" -o "$name" > /dev/null 2> "$name.gen.err" ||
		{ cat "$name.gen.err"; fail "$name: skeleton"; }
	three_lines "$src" > "$name/main.c"
	grep -q "PEPPHER_INITIALIZE" "$name/main.c" || fail "$name: no main found in $src"
	for f in $tree_sources; do
		cp "$f" "$name/" || fail "$name: cannot copy $f"
		case $f in
		*.c) sed -i "s|^    </peppher:sourceFiles>|      <peppher:sourceFile name=\"${f##*/}\" language=\"C\"/>\n&|" \
			"$name/main.xml" ;;
		esac
	done
	"$COMPOSE" "$name/main.xml" -o "$name-gen" --platforms=CPU,OPENMP > /dev/null 2> "$name.compose.err" ||
		{ cat "$name.compose.err"; fail "$name: compose"; }
	make_quiet -C "$name-gen" -j2 "$@" > "$name.build.log" 2>&1 ||
		{ grep -m5 error "$name.build.log"; fail "$name: build"; }
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
if wanted pngtest && [ -e "$doc/libpng-dev/examples/pngtest.png" ]; then
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
# libvorbis' examples: a WAV (16-bit stereo, its samples bytes of text)
# encoded to Ogg Vorbis and decoded back, through libvorbis and libogg,
# then read with vorbisfile.h's whole-file API: played, seeked at random
# (checked by the program itself) and its chained streams listed.  The
# encoder numbers its stream with rand() after srand(time(NULL)): its
# outputs are compared decoded.
vorbis=$doc/libvorbis-dev/examples
if [ -n "${LEGACY_APPS:-}" ] && [ -e "$vorbis/encoder_example.c" ] && [ -e /usr/include/vorbis/vorbisenc.h ]; then
	{ printf 'RIFF\064\261\002\000WAVEfmt \020\000\000\000\001\000\002\000\104\254\000\000'
	  printf '\020\261\002\000\004\000\020\000data\020\261\002\000'
	  head -c 176400 text; } > noise.wav
	gcc -O2 -w -o vorbis-encoder "$vorbis/encoder_example.c" -lvorbisenc -lvorbis -logg -lm &&
		./vorbis-encoder < noise.wav > noise.ogg 2> /dev/null || fail "vorbis: the encoder built directly failed"
	app vorbis_decode /usr/include/vorbis/codec.h,/usr/include/ogg/ogg.h "$vorbis/decoder_example.c" \
		"-lvorbis -logg -lm" vorbis_synthesis noise.ogg
	app_compare=./vorbis_decode-direct
	app vorbis_encode /usr/include/vorbis/vorbisenc.h,/usr/include/vorbis/codec.h,/usr/include/ogg/ogg.h \
		"$vorbis/encoder_example.c" "-lvorbisenc -lvorbis -logg -lm" vorbis_analysis noise.wav
	app_compare=
	app vorbisfile /usr/include/vorbis/vorbisfile.h "$vorbis/vorbisfile_example.c" \
		"-lvorbisfile -lvorbis -logg -lm" ov_read noise.ogg
	[ ! -e vorbisfile.out ] || [ ! -e vorbis_decode.out ] || [ "$(wc -c < vorbisfile.out)" -eq "$(wc -c < vorbis_decode.out)" ] ||
		fail "vorbisfile: not as many samples as decoder_example.c wrote"
	app vorbis_seek /usr/include/vorbis/vorbisfile.h "$vorbis/seeking_example.c" \
		"-lvorbisfile -lvorbis -logg -lm" ov_pcm_seek_page noise.ogg
	app vorbis_chain /usr/include/vorbis/vorbisfile.h "$vorbis/chaining_example.c" \
		"-lvorbisfile -lvorbis -logg -lm" ov_bitrate noise.ogg
fi
# libjpeg-turbo's tjexample.c: a PPM (its pixels bytes of text)
# compressed to JPEG, then the JPEG decompressed at half size to BMP
{ printf 'P6\n64 48\n255\n'; head -c 9216 text; } > image.ppm
tj=$doc/libjpeg62-turbo-dev/examples/tjexample.c
app_files=image.jpg
app tjcompress /usr/include/turbojpeg.h "$tj" -lturbojpeg tjCompress2 /dev/null image.ppm image.jpg -q 85
# TurboJPEG keeps its last error per thread (tjGetErrorStr2(NULL), which
# tjexample prints when tjLoadImage fails): composed, its functions run on
# the thread that made the call, so the message is the library's, every
# call on a worker (PEPPHER_UNDEFERRED=0) or over StarPU; on a worker,
# tjexample printed "No error"
if wanted tjcompress && [ -x tjcompress-direct ]; then
	grep -q 'callerThread="true"' tjcompress/tjLoadImage/cpu/tjLoadImage_cpu.xml ||
		fail "tjcompress: tjLoadImage's CPU variant does not run on the calling thread"
	# (the three lines moved tjexample's own: "ERROR in line 347")
	app_compare="sed s/line.[0-9]*/line/"
	./tjcompress-direct missing.ppm out.jpg > missing.direct.out 2>&1
	drc=$?
	grep -q "Cannot open input file" missing.direct.out || fail "tjcompress: built directly, no error for a missing file"
	PEPPHER_UNDEFERRED=0 ./tjcompress-gen/*_app missing.ppm out.jpg > missing.out 2>&1
	[ $? -eq $drc ] && same_output missing.direct.out missing.out ||
		fail "tjcompress on a missing file, every call on a worker: $(tr '\n' ' ' < missing.out)"
	if pkg-config --exists peppher-starpu; then
		STARPU_SILENT=1 STARPU_HOME="$work/starpu-home" ./tjcompress-starpu/*_app missing.ppm out.jpg \
			> missing.starpu.out 2>&1
		[ $? -eq $drc ] && same_output missing.direct.out missing.starpu.out ||
			fail "tjcompress on a missing file over StarPU: $(tr '\n' ' ' < missing.starpu.out)"
	fi
	app_compare=
	echo "PASS: tjcompress on a missing file: TurboJPEG's per-thread error, as built directly"
fi
app_files=image.bmp
app tjdecompress /usr/include/turbojpeg.h "$tj" -lturbojpeg tjDecompress2 /dev/null image.jpg image.bmp -scale 1/2
app_files=
# Snowball's stemwords.c: the words of text stemmed in English
tr -cs 'A-Za-z' '\n' < text | head -n 20000 > words
app stemwords /usr/include/libstemmer.h "$doc/libstemmer0d/examples/stemwords.c" -lstemmer sb_stemmer_stem \
	words -l english
# jansson's json_process.c: JSON read from stdin and written again, keys
# sorted and indented as its environment says
printf '{"name": "PEPPHER", "sizes": [1, 2.5e3, -7], "nested": {"z": null, "a": [true, false, "\\u00e9t\\u00e9"]}}\n' > in.json
export JSON_INDENT=3 JSON_SORT_KEYS=1
app json_process /usr/include/jansson.h "$doc/libjansson4/examples/json_process.c" -ljansson json_loadf in.json --env
unset JSON_INDENT JSON_SORT_KEYS
# libgit2's lg2: git's commands in 30 sources over git2.h's 837
# functions, main.c from lg2.c and the 29 others named in main.xml; a
# repository made, changed and read with it, built directly and composed
lg2=$doc/libgit2-dev/examples
if wanted lg2 && [ -e "$lg2/lg2.c" ] && [ -e /usr/include/git2.h ]; then
	for f in "$lg2"/*.c "$lg2"/*.h; do
		[ "$f" = "$lg2/lg2.c" ] || tree_sources="$tree_sources $f"
	done
	tree lg2 /usr/include/git2.h -lgit2 "$lg2/lg2.c"
	tree_sources=
	gcc -O2 -w -o lg2-direct "$lg2"/*.c -lgit2 || fail "lg2: direct build"
	mkdir -p lg2-home
	printf '[user]\n\tname = PEPPHER test\n\temail = test@example.org\n' > lg2-home/.gitconfig
	for how in direct composed; do
		prog=$work/lg2-direct
		[ $how = direct ] || prog=$work/lg2-gen/git2_app
		rm -rf "repo-$how"
		mkdir "repo-$how"
		(
		cd "repo-$how" || exit 1
		export HOME="$work/lg2-home" XDG_CONFIG_HOME="$work/lg2-home" PEPPHER_STATS=1
		$prog init . | sed 's|/.*/repo-[a-z]*/|repo/|'
		printf 'line one\nline two\n' > a
		echo one > b
		$prog add a b
		$prog commit -m first > /dev/null
		$prog status
		$prog ls-files
		$prog rev-parse 'HEAD^{tree}'
		$prog cat-file -p 'HEAD^{tree}'
		echo three >> a
		$prog diff
		$prog add a
		$prog commit -m second > /dev/null
		$prog rev-parse 'HEAD^{tree}'
		# commit names and dates differ: the time differs
		$prog log | grep -v '^commit\|^Date'
		$prog blame a | cut -c10-
		$prog rev-list HEAD | wc -l
		echo change >> b
		$prog stash > /dev/null
		$prog status
		) > "lg2.$how.out" 2> "lg2.$how.err" || fail "lg2: the $how program failed"
	done
	cmp -s lg2.direct.out lg2.composed.out || fail "lg2: output differs from the program built directly"
	# its commits are made by git_commit_create_v, variadic: a direct call
	grep -q "3) three" lg2.composed.out || fail "lg2: no blame of the third line"
	for fn in git_repository_init git_index_add_all git_index_write_tree git_diff_print git_blame_file git_stash_save; do
		grep -q "^    $fn/${fn}_cpu: " lg2.composed.err || fail "lg2: $fn did not run as a component"
	done
	echo "PASS: lg2 (libgit2's examples, 30 sources): the same $(wc -l < lg2.composed.out) lines, $(sed -n 's|^    \([^/]*\)/.*|\1|p' lg2.composed.err | sort -u | wc -l) library functions run as components"
fi
# An MPI program: CVODE's parallel advection-diffusion example on 2 ranks
# (mpicc, mpirun), each rank's library calls components of its own, the
# output the one SUNDIALS ships; PEPPHER_INITIALIZE() comes before the
# program's MPI_Init, and no rank is warned that the program is not built
# for MPI
mpi_ex=$sun/cvode/parallel/cvAdvDiff_non_p
mpirun="mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2"
if wanted cv_mpi && [ -e "$mpi_ex.c" ] && command -v mpicc > /dev/null &&
	command -v mpirun > /dev/null; then
	tree cv_mpi /usr/include/cvode/cvode.h "-lsundials_cvode -lsundials_nvecparallel -lm" "$mpi_ex.c" CC=mpicc
	PEPPHER_STATS=1 timeout 120 $mpirun ./cv_mpi-gen/cvode_app > cv_mpi.out 2> cv_mpi.err ||
		{ tail cv_mpi.err; fail "cv_mpi: the composed program on 2 ranks failed"; }
	cmp -s cv_mpi.out "$mpi_ex.out" || fail "cv_mpi: output differs from the one SUNDIALS ships ($mpi_ex.out)"
	[ "$(grep -c '^    CVode/CVode_cpu: ' cv_mpi.err)" -eq 2 ] || fail "cv_mpi: CVode did not run as a component on both ranks"
	! grep -q "not built for MPI" cv_mpi.err || fail "cv_mpi: warned that it is not built for MPI"
	echo "PASS: cv_mpi (cvAdvDiff_non_p.c) on 2 MPI ranks: the output SUNDIALS ships, CVode a component on each rank"
fi
# PETSc's tutorials (libpetsc-real-dev, 900 MB with what it needs: not
# among scripts/install-deps' packages, skipped without it): a linear
# system solved with KSP on 2 MPI ranks, and a nonlinear one with SNES,
# whose solve calls the program's function, Jacobian and monitor back from
# inside the component
petsc=/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real
petsc_ex=$doc/libpetsc3.18-dev-examples/examples/src
if [ -e "$petsc/include/petscksp.h" ] && [ -e "$petsc_ex" ] && command -v mpicc > /dev/null &&
	command -v mpirun > /dev/null; then
	# its headers include mpi.h: the header is read with mpicc's -I folders
	petsc_flags="-I$petsc/include $(mpicc --showme:compile) -L$petsc/lib -lpetsc_real -lm"
fi
if [ -n "${petsc_flags:-}" ] && wanted ksp; then
	tree ksp "$petsc/include/petscksp.h" "$petsc_flags" "$petsc_ex/ksp/ksp/tutorials/ex2.c" \
		CC=mpicc CPPFLAGS="-I$petsc/include"
	# shellcheck disable=SC2086
	mpicc -O2 -w -o ksp-direct "$petsc_ex/ksp/ksp/tutorials/ex2.c" $petsc_flags || fail "ksp: direct build"
	timeout 120 $mpirun ./ksp-direct -m 24 -n 24 -ksp_monitor > ksp.direct.out 2> /dev/null ||
		fail "ksp: built directly, it failed on 2 ranks"
	PEPPHER_STATS=1 timeout 120 $mpirun ./ksp-gen/petscksp_app -m 24 -n 24 -ksp_monitor > ksp.out 2> ksp.err ||
		{ tail ksp.err; fail "ksp: the composed program on 2 ranks failed"; }
	cmp -s ksp.direct.out ksp.out || fail "ksp: output differs from the program built directly"
	[ "$(grep -c '^    KSPSolve/KSPSolve_cpu: ' ksp.err)" -eq 2 ] || fail "ksp: KSPSolve did not run as a component on both ranks"
	echo "PASS: ksp (PETSc's ksp/ex2.c) on 2 MPI ranks: the same $(grep -c 'Residual norm' ksp.out) residuals and error norm"
fi
if [ -n "${petsc_flags:-}" ] && wanted snes; then
	tree snes "$petsc/include/petscsnes.h" "$petsc_flags" "$petsc_ex/snes/tutorials/ex2.c" \
		CC=mpicc CPPFLAGS="-I$petsc/include"
	# shellcheck disable=SC2086
	mpicc -O2 -w -o snes-direct "$petsc_ex/snes/tutorials/ex2.c" $petsc_flags || fail "snes: direct build"
	./snes-direct -snes_monitor -n 40 > snes.direct.out 2> /dev/null || fail "snes: built directly, it failed"
	PEPPHER_STATS=1 ./snes-gen/petscsnes_app -snes_monitor -n 40 > snes.out 2> snes.err ||
		{ tail snes.err; fail "snes: the composed program failed"; }
	cmp -s snes.direct.out snes.out || fail "snes: output differs from the program built directly"
	grep -q '^    SNESSolve/SNESSolve_cpu: 1 tasks' snes.err || fail "snes: SNESSolve did not run as a component"
	echo "PASS: snes (PETSc's snes/ex2.c): the same output, the program's function and monitor called back from SNESSolve's component"
fi
[ -n "${LEGACY_APPS:-}" ] || echo "(make check-long runs the other programs: LEGACY_APPS=all)"
