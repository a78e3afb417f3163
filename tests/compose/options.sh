#!/bin/sh
# compose's narrowing options, in both spellings, and --graph.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/options"
rm -rf "$out"
mkdir -p "$out"
main="$top_srcdir/examples/vector_scale/main.xml"
fail() { echo "FAIL: $*"; exit 1; }
. "$top_srcdir/tests/platforms.sh"

# PEPPHER spellings: only the blocked CPU variant is left
"$COMPOSE" -disableImpls=vector_scale_cpu_loop,vector_scale_openmp -disableCUDA -disableOpenCL \
	--graph="$out/g.dot" "$main" -o "$out/a" 2> "$out/a.err" || fail "compose a"
grep -c '{ PPH_ARCH_' "$out/a/vector_scale_entry.c" | grep -qx 1 || fail "a: impls"
grep -q 'vector_scale_cpu_blocked_backend, "vector_scale_cpu_blocked"' "$out/a/vector_scale_entry.c" ||
	fail "a: blocked variant missing"
grep -q "note: skipping 'vector_scale_cuda': CUDA disabled on the command line" "$out/a.err" ||
	fail "a: note for CUDA"
grep -q "note: skipping 'vector_scale_openmp': disabled by --disable-impls" "$out/a.err" ||
	fail "a: note for openmp"
ls "$out/a" | grep -q cuda && fail "a: CUDA backend generated"
grep -q '"impl:vector_scale_cuda" \[shape=box, style=dashed, color=gray, fontcolor=gray, label="vector_scale_cuda\\nCUDA\\n(CUDA disabled on the command line)"\];' "$out/g.dot" ||
	fail "graph: excluded CUDA variant"
grep -q '"main" -> "iface:vector_scale";' "$out/g.dot" || fail "graph: main edge"

# GNU spellings give the same files
"$COMPOSE" --disable-impls=vector_scale_cpu_loop,vector_scale_openmp --disable-cuda --disable-opencl \
	"$main" -o "$out/b" 2> /dev/null || fail "compose b"
diff -r "$out/a" "$out/b" || fail "spellings differ"

# ComPU's spellings in any case, each against its GNU one: the same files
same() { # name "compu words" "gnu words"
	"$COMPOSE" $2 "$main" -o "$out/$1.compu" 2> "$out/$1.compu.err" ||
		{ cat "$out/$1.compu.err"; fail "$1: $2"; }
	"$COMPOSE" $3 "$main" -o "$out/$1.gnu" 2> /dev/null || fail "$1: $3"
	diff -r "$out/$1.compu" "$out/$1.gnu" || fail "$1: '$2' and '$3' differ"
}
same cuda "-DISABLECUDA" "--disable-cuda"
grep -q vector_scale_cuda "$out/cuda.compu/vector_scale_entry.c" && fail "-DISABLECUDA left CUDA on"
grep -q "note: skipping 'vector_scale_cuda': CUDA disabled on the command line" "$out/cuda.compu.err" ||
	fail "-DISABLECUDA: note"
# without the CPU a build with no device platform has no variant left:
# both spellings then fail alike
if have_platform CUDA || have_platform OPENCL; then
	same cpu "-disablecpu" "--disable-cpu"
else
	"$COMPOSE" -disablecpu "$main" -o "$out/cpu.compu" 2> "$out/cpu.compu.err" &&
		fail "cpu: -disablecpu composed without a variant"
	"$COMPOSE" --disable-cpu "$main" -o "$out/cpu.gnu" 2> "$out/cpu.gnu.err" &&
		fail "cpu: --disable-cpu composed without a variant"
	diff "$out/cpu.compu.err" "$out/cpu.gnu.err" || fail "cpu: '-disablecpu' and '--disable-cpu' differ"
	grep -q "error: interface 'vector_scale' has no enabled implementation" "$out/cpu.gnu.err" ||
		{ cat "$out/cpu.gnu.err"; fail "cpu: diagnostic"; }
fi
same opencl "-DisableOpenCL -disableCuda" "--disable-opencl --disable-cuda"
same impls "-DISABLEIMPLS=vector_scale_openmp" "--disable-impls=vector_scale_openmp"
same hist "-USEHISTORYMODELS" "--use-history-models"
same reg "-useregressionmodels" "--use-regression-models"
same nlreg "-UseNLRegressionModels" "--use-nl-regression-models"
same ext "-WRAPPERFILESEXT=c" "--wrapper-ext=.c"
same xml "-DISABLEXMLFILES=VECTOR_SCALE_CUDA,vector_scale_opencl.xml" \
	"--disable-xml-files=vector_scale_cuda,vector_scale_opencl"
grep -Eq 'vector_scale_(cuda|opencl)' "$out/xml.compu/vector_scale_entry.c" "$out/xml.compu/Makefile" &&
	fail "xml: variants of skipped descriptors composed"
same cpp "-wrapperFilesExt=cpp" "--wrapper-ext=.cpp"
[ -f "$out/cpp.compu/vector_scale_entry.cpp" ] && [ ! -e "$out/cpp.compu/vector_scale_entry.c" ] ||
	fail "cpp: entry wrapper name"
grep -q '^	$(CXX) .* -c vector_scale_entry.cpp -o \$@$' "$out/cpp.compu/Makefile" || fail "cpp: not compiled by CXX"
"$COMPOSE" -V=2 -n "$main" -o "$out/v" 2> "$out/v.err" > /dev/null || fail "-V=2"
grep -q "^compose: reading " "$out/v.err" || fail "-V=2: not verbose"
"$COMPOSE" --HELP | grep -q "^ComPU's spellings are accepted too" || fail "--HELP"
# "-D NAME" and "-o DIR" keep their meaning; a value is never translated
"$COMPOSE" -DUSE_FAST=1 -D disableCPU -o "$out/dd" "$main" 2> /dev/null || fail "-D defines"
grep -q vector_scale_cpu_loop "$out/dd/vector_scale_entry.c" || fail "-D disableCPU disabled the CPU"
(cd "$out" && "$COMPOSE" "$main" -o -disableCPU 2> /dev/null) || fail "-o -disableCPU"
[ -f "$out/-disableCPU/peppher.h" ] || fail "-o took -disableCPU as an option"

# mistakes in ComPU's spellings are errors, never defines or includes
refuse() { # expected-message words...
	msg=$1
	shift
	"$COMPOSE" "$@" "$main" -o "$out/bad" 2> "$out/bad.err" && fail "accepted: $*"
	grep -qxF "compose: error: $msg" "$out/bad.err" || { cat "$out/bad.err"; fail "message for $*"; }
	[ -e "$out/bad" ] && fail "$*: output written"
	true
}
known="-generateCompFiles=LIST, -disableXMLFiles=LIST, -disableImpls=LIST, -wrapperFilesExt=EXT, -useHistoryModels, -useRegressionModels, -useNLRegressionModels, -disableCPU, -disableCUDA, -disableOpenCL, -v=N"
refuse "unknown option '-DISABLEGPU'; the PEPPHER spellings (in any case) are $known" -DISABLEGPU
refuse "unknown option '-disableOpenMP'; the PEPPHER spellings (in any case) are $known" -disableOpenMP
refuse "unknown option '-useHistoryModel'; the PEPPHER spellings (in any case) are $known" -useHistoryModel
refuse "unknown option '-generateCompFile=a.h'; the PEPPHER spellings (in any case) are $known" -generateCompFile=a.h
refuse "unknown option '-wrapperExt=c'; the PEPPHER spellings (in any case) are $known" -wrapperExt=c
refuse "option '-disableCPU=yes' takes no value" -disableCPU=yes
refuse "option '-DisableImpls' needs a value: -disableImpls=LIST" -DisableImpls
refuse "wrapper extension '.h': entry wrappers are compiled on their own (NAME_entry.c), not included as headers as ComPU's were; use .c (the default), or .cpp, .cc or .cxx to compile them as C++" -wrapperFilesExt=h
refuse "wrapper extension '.h': entry wrappers are compiled on their own (NAME_entry.c), not included as headers as ComPU's were; use .c (the default), or .cpp, .cc or .cxx to compile them as C++" --wrapper-ext=.h
refuse "wrapper extension '.f90': expected .c, .cpp, .cc or .cxx" -wrapperFilesExt=.f90
refuse "--disable-xml-files: 'vs.txt' is not a descriptor file name (NAME or NAME.xml)" -disableXMLFiles=vs.txt
refuse "--disable-xml-files: 'cuda/vs.xml' is a path; give descriptor file names" --disable-xml-files=cuda/vs.xml
refuse "--verbose=7: expected 0 to 3" -v=7

# disabling every CPU variant of a CPU-only build is an error, naming the interface
"$COMPOSE" --disable-cpu --platforms=CPU,OPENMP "$main" -o "$out/c" 2> "$out/c.err" &&
	fail "compose c succeeded"
grep -q "vector_scale.xml:4: error: interface 'vector_scale' has no enabled implementation" "$out/c.err" ||
	{ cat "$out/c.err"; fail "c: diagnostic"; }
[ -e "$out/c/peppher.h" ] && fail "c: output written"

# --platforms: names in any case, blanks around them dropped
"$COMPOSE" --platforms=" cpu , OpenMP" "$main" -o "$out/p" 2> "$out/p.err" || { cat "$out/p.err"; fail "--platforms with blanks"; }
grep -q "OPENMP is not among --platforms" "$out/p.err" && fail "--platforms with blanks: OPENMP left out"

# --dry-run writes nothing
"$COMPOSE" --dry-run "$main" -o "$out/d" > "$out/d.list" || fail "dry run"
grep -q "/d/Makefile$" "$out/d.list" || fail "dry run list"
[ -z "$(ls -A "$out/d" 2> /dev/null)" ] || fail "dry run wrote files"
# static constraints: facts detected here leave pick_huge out; a platform
# description (by path, or by name from the repositories) can bring it in
cons="$top_srcdir/tests/compose/data/golden/constraints/main.xml"
"$COMPOSE" "$cons" -o "$out/e" 2> "$out/e.err" || fail "constraints"
grep -q "pick_huge.xml:19: note: skipping 'pick_huge': static constraint \"num_cores >= 100000 && has_cpu\" is false here (num_cores = [0-9]*, has_cpu = 1)" "$out/e.err" ||
	{ cat "$out/e.err"; fail "e: static constraint note"; }
grep -q pick_huge "$out/e/pick_entry.c" && fail "e: pick_huge composed"
mkdir -p "$out/repo/platforms"
cat > "$out/repo/platforms/big.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:platform name="big">
    <peppher:fact name="num_cores" value="200000"/>
  </peppher:platform>
</peppher:component>
XML
"$COMPOSE" "$cons" --platform="$out/repo/platforms/big.xml" -o "$out/f" 2> /dev/null || fail "--platform=FILE"
grep -q '{ PPH_ARCH_CPU, pick_huge_backend, "pick_huge", 0 }' "$out/f/pick_entry.c" || fail "f: pick_huge left out"
"$COMPOSE" "$cons" -R "$out/repo" --platform=big -o "$out/g" 2> /dev/null || fail "--platform=NAME"
diff -r "$out/f" "$out/g" || fail "--platform by name and by path differ"
"$COMPOSE" "$cons" --platform=nowhere -o "$out/h" 2> "$out/h.err" && fail "unknown platform accepted"
grep -qx "compose: error: no platform description 'nowhere' in the repositories (platforms/nowhere.xml)" "$out/h.err" ||
	{ cat "$out/h.err"; fail "h: diagnostic"; }
"$COMPOSE" "$cons" -R "$top_srcdir/repository" --platform=gpu-node -o "$out/i" 2> /dev/null ||
	fail "the shipped gpu-node platform"

# device counts are detected only for a constraint that names them (hwloc's
# I/O discovery starts every OpenCL platform); a platform description's win
"$COMPOSE" -v=3 "$cons" -o "$out/dev0" 2> "$out/dev0.err" || fail "dev0"
grep -q "num_opencl_devices" "$out/dev0.err" && { cat "$out/dev0.err"; fail "dev0: devices counted"; }
cp -r "$top_srcdir/tests/compose/data/golden/constraints" "$out/devs"
sed -i 's/expr="num_cores &gt;= 100000 &amp;&amp; has_cpu"/expr="num_opencl_devices \&gt;= 0 \&amp;\&amp; num_cuda_devices \&lt; 100000"/' \
	"$out/devs/pick/huge/pick_huge.xml"
grep -q 'expr="num_opencl_devices &gt;= 0 &amp;&amp; num_cuda_devices &lt; 100000"' "$out/devs/pick/huge/pick_huge.xml" ||
	fail "devs: descriptor not rewritten"
"$COMPOSE" -v=3 "$out/devs/main.xml" -o "$out/dev1" 2> "$out/dev1.err" || { cat "$out/dev1.err"; fail "dev1"; }
grep -q "platform fact num_opencl_devices = [0-9]" "$out/dev1.err" || { cat "$out/dev1.err"; fail "dev1: not counted"; }
grep -q pick_huge "$out/dev1/pick_entry.c" || fail "dev1: pick_huge left out"
# OpenCL devices counted as the runtime opens them: PoCL's CPU device too
# (hwloc counts GPUs and accelerators only: 0 here)
if grep -q "define PPH_HAVE_OPENCL 1" "$top_builddir/config.h" && [ -f /etc/OpenCL/vendors/pocl.icd ]; then
	grep -q "platform fact num_opencl_devices = [1-9]" "$out/dev1.err" ||
		{ cat "$out/dev1.err"; fail "dev1: PoCL's device not counted"; }
fi
cat > "$out/repo/platforms/nodev.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:platform name="nodev">
    <peppher:fact name="num_opencl_devices" value="-1"/>
    <peppher:fact name="num_cuda_devices" value="0"/>
  </peppher:platform>
</peppher:component>
XML
"$COMPOSE" -v=3 "$out/devs/main.xml" -R "$out/repo" --platform=nodev -o "$out/dev2" 2> "$out/dev2.err" ||
	fail "dev2"
grep -q "hwloc I/O discovery" "$out/dev2.err" && fail "dev2: devices counted over the platform's"
grep -q "note: skipping 'pick_huge': static constraint .* is false here (num_opencl_devices = -1" "$out/dev2.err" ||
	{ cat "$out/dev2.err"; fail "dev2: note"; }

# start-up: --version and a compose without prototype checks open neither
# libclang nor an OpenCL platform (glibc's LD_DEBUG lists what is opened);
# a constraint on devices starts OpenCL, a prototype check libclang
LD_DEBUG=files "$COMPOSE" --version > "$out/ld.out" 2> "$out/ld.err" || fail "--version"
grep -q "^C parser: libclang" "$out/ld.out" && grep -q "file=libclang" "$out/ld.err" &&
	fail "--version opened libclang"
LD_DEBUG=files "$COMPOSE" --no-check-sources -n "$main" -o "$out/ld" > /dev/null 2> "$out/ld.err" ||
	fail "ld: compose"
grep -Eq "file=[^ ]*(libclang|pocl)" "$out/ld.err" && fail "libclang or OpenCL opened without need"
LD_DEBUG=files "$COMPOSE" -n "$cons" -o "$out/ld" > /dev/null 2> "$out/ld.err" || fail "ld: cons"
grep -Eq "file=[^ ]*pocl" "$out/ld.err" && fail "OpenCL started for no device constraint"
if grep -q "^C parser: libclang" "$out/ld.out"; then
	"$COMPOSE" -v --version | grep -qx "libclang: loads" || fail "-v --version: libclang does not load"
fi

# performance-model kinds: the PEPPHER spelling, the GNU one, the attribute
"$COMPOSE" -useHistoryModels "$main" -o "$out/j" 2> /dev/null || fail "-useHistoryModels"
grep -q '"vector_scale", [0-9]*, vector_scale_impls, PPH_MODEL_HISTORY' "$out/j/vector_scale_entry.c" ||
	fail "j: history model"
"$COMPOSE" --use-regression-models "$cons" -o "$out/k" 2> /dev/null || fail "--use-regression-models"
grep -q 'total_impls, PPH_MODEL_REGRESSION' "$out/k/total_entry.c" || fail "k: regression model"
grep -q 'pick_impls, PPH_MODEL_NL_REGRESSION' "$out/k/pick_entry.c" || fail "k: the attribute wins"
# two kinds at once: which was meant? (ComPU stops too)
"$COMPOSE" -useHistoryModels -useRegressionModels "$main" -o "$out/m" 2> "$out/m.err" &&
	fail "two model kinds accepted"
grep -qx "compose: error: --use-history-models, --use-regression-models and --use-nl-regression-models: give one" "$out/m.err" ||
	{ cat "$out/m.err"; fail "m: diagnostic"; }
# implementation names in any case, as ComPU; one no implementation has is said
"$COMPOSE" -disableImpls=VECTOR_SCALE_OPENMP,no_such_impl "$main" -o "$out/n" 2> "$out/n.err" ||
	fail "-disableImpls in capitals"
grep -q "vector_scale_openmp" "$out/n/Makefile" && fail "n: VECTOR_SCALE_OPENMP not disabled"
grep -qx "compose: warning: --disable-impls: no implementation is named 'no_such_impl'" "$out/n.err" ||
	{ cat "$out/n.err"; fail "n: no word on an unknown implementation"; }

# composing again rewrites only what changed: the others keep their time,
# so that make rebuilds nothing for them
"$COMPOSE" "$main" -o "$out/l" 2> /dev/null || fail "compose l"
(cd "$out/l" && stat -c '%n %y' *) > "$out/l.times"
"$COMPOSE" -v "$main" -o "$out/l" 2> "$out/l.err" || fail "compose l again"
grep -q "wrote" "$out/l.err" && { cat "$out/l.err"; fail "l: unchanged files written"; }
grep -q "unchanged .*/l/Makefile$" "$out/l.err" || { cat "$out/l.err"; fail "l: no unchanged note"; }
(cd "$out/l" && stat -c '%n %y' *) | diff "$out/l.times" - || fail "l: times changed"
"$COMPOSE" -v -useHistoryModels "$main" -o "$out/l" 2> "$out/l.err" || fail "compose l history"
grep -q "wrote .*/l/vector_scale_entry.c$" "$out/l.err" || { cat "$out/l.err"; fail "l: entry not rewritten"; }
grep -q "unchanged .*/l/Makefile$" "$out/l.err" || fail "l: Makefile rewritten"
grep -q PPH_MODEL_HISTORY "$out/l/vector_scale_entry.c" || fail "l: entry content"
ls -A "$out/l" | grep -q '^\.compose' && fail "l: temporary folder left"

# make rebuilds the objects whose rules changed (NAME.flags), and no others
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
cp -R "$top_srcdir/tests/compose/data/golden/basic" "$out/mk"
chmod -R u+w "$out/mk"
# norm's one variant is OpenMP's: a build without OpenMP composes it for the CPU
have_platform OPENMP ||
	sed -i 's|<peppher:targetPlatform name="OPENMP"/>|<peppher:targetPlatform name="CPU"/>|; s|<peppher:flags>-fopenmp</peppher:flags>|<peppher:flags></peppher:flags>|' \
		"$out/mk/norm/omp/norm_omp.xml"
(cd "$out/mk" && "$COMPOSE" --platforms=CPU,OPENMP main.xml -o ../mkout 2> /dev/null) || fail "mk: compose"
mk -C "$out/mkout" > "$out/mk.log" 2>&1 || { cat "$out/mk.log"; fail "mk: build"; }
recompose() { # what make would then run
	# one time for the tree and its sources, this second's start: the
	# headers they include (DEPFLAGS) are older, also in a fresh clone,
	# and what compose writes now is newer
	now=$(date +%s)
	find "$out/mkout" "$out/mk" -exec touch -d "@$now" {} +
	(cd "$out/mk" && "$COMPOSE" --platforms=CPU,OPENMP main.xml -o ../mkout 2> /dev/null) ||
		fail "mk: compose again"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$out/mkout" > "$out/mk.n"
}
recompose
grep -q -- " -c " "$out/mk.n" && { cat "$out/mk.n"; fail "mk: the same tree compiles again"; }
sed -i 's|<peppher:flags>-lm</peppher:flags>|<peppher:flags>-lm -Wl,-O1</peppher:flags>|' "$out/mk/main.xml"
recompose
grep -q -- "-Wl,-O1" "$out/mk.n" || fail "mk: other link flags do not relink"
grep -q -- " -c " "$out/mk.n" && { cat "$out/mk.n"; fail "mk: other link flags compile again"; }
sed -i 's|-O2 -std=c++11|-O1 -std=c++11|' "$out/mk/axpy/cxx/axpy_cxx.xml"
recompose
grep -q -- "-O1 -std=c++11 .* -c $out/mk/axpy/cxx/axpy_cxx.cpp" "$out/mk.n" || { cat "$out/mk.n"; fail "mk: a variant's new flags do not compile it"; }
grep -- " -c " "$out/mk.n" | grep -v -e " -c axpy_" -e " -c $out/mk/axpy/" && fail "mk: another unit compiles again"
(cd "$out/mk" && "$COMPOSE" --runtime=starpu --platforms=CPU,OPENMP main.xml -o ../mkout 2> /dev/null) &&
	{ env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$out/mkout" | grep -q -- " -c $out/mk/main.c" ||
		fail "mk: another runtime does not compile the application again"; }

# make says when pkg-config does not find the runtime (else: undefined pph_ symbols)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=/nonexistent \
	make -C "$out/mkout" > "$out/nopc.log" 2>&1 && fail "make without pkg-config's peppher"
grep -q "pkg-config finds no peppher-starpu: put the folder of peppher-starpu.pc (PREFIX/lib/pkgconfig) on PKG_CONFIG_PATH" "$out/nopc.log" ||
	grep -q "pkg-config finds no peppher: put the folder of peppher.pc (PREFIX/lib/pkgconfig) on PKG_CONFIG_PATH" "$out/nopc.log" ||
	{ cat "$out/nopc.log"; fail "make without pkg-config's peppher: not said"; }

echo "PASS: options"
