#!/bin/sh
# The other examples on libpeppher and on StarPU (compose --runtime=starpu):
# dot (reductions: STARPU_REDUX), sgemm and spmv (the repository's
# components), mandelbrot (a call split into blocks) and legacy (the
# PEPPHER-ized program, delegating through -Wl,--wrap).  Each checks its
# results against a sequential reference and prints ": correct"; both
# runtimes must print the same verdicts (the numbers may differ in their
# last bits: StarPU combines a reduction's copies in its own order), and
# legacy the same image digests.
set -u
out="$top_builddir/tests/out/starpu/apps"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu/common.sh"
repo="-R $top_srcdir/repository"

# verdicts DIR: each runtime's result lines with their numbers dropped agree
verdicts() {
	for rt in peppher starpu; do
		grep -E ": correct$|WRONG|wrong|differ:" "$1/$rt.log" | sed -E 's/[-+]?[0-9][0-9.e+-]*//g' > "$1/$rt.verdicts"
	done
	[ -s "$1/starpu.verdicts" ] || { cat "$1/starpu.log"; fail "$1: no result on StarPU"; }
	diff -u "$1/peppher.verdicts" "$1/starpu.verdicts" || fail "$1: verdicts differ between libpeppher and StarPU"
	! grep -Eq "WRONG|wrong" "$1/starpu.log" || { cat "$1/starpu.log"; fail "$1: a wrong result on StarPU"; }
}

for ex in dot sgemm spmv mandelbrot; do
	mkdir -p "$out/$ex"
	# shellcheck disable=SC2086
	for rt in peppher starpu; do
		build $rt "$out/$ex" "$top_srcdir/examples/$ex/main.xml" $repo
	done
done
"$out/spmv/peppher/spmv" --generate lap2d 150 "$out/lap2d.mtx" || fail "generate lap2d"

run_ex() { # EX RUNTIME ARGS...
	ex=$1 rt=$2
	shift 2
	rm -rf "$out/$ex/home-$rt"
	PEPPHER_HOME="$out/$ex/home-$rt" STARPU_HOME="$out/$ex/home-$rt/starpu" PEPPHER_NCPU=2 \
		PEPPHER_STATS=1 "$out/$ex/$rt/$ex" "$@" > "$out/$ex/$rt.log" 2>&1 ||
		{ cat "$out/$ex/$rt.log"; fail "$ex on $rt exited with $?"; }
}
for rt in peppher starpu; do
	run_ex dot $rt
	run_ex sgemm $rt 300 257 190 4
	run_ex spmv $rt "$out/lap2d.mtx" 4
	run_ex mandelbrot $rt
done
for ex in dot sgemm spmv mandelbrot; do
	verdicts "$out/$ex"
	echo "$ex: $(grep -c ': correct$' "$out/$ex/starpu.log") result(s) correct on StarPU"
done
grep -q "^dot: correct$" "$out/dot/starpu.log" || fail "dot: no final verdict on StarPU"
grep -q "amax: up to [2-9] blocks ran at once" "$out/dot/starpu.log" ||
	{ cat "$out/dot/starpu.log"; fail "dot: amax's blocks did not run at once on StarPU"; }

# legacy: the PEPPHER-ized program prints the digests the plain one prints
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
src="$top_srcdir/examples/legacy"
cp -R "$src/before" "$out/before"
chmod -R u+w "$out/before"
make_quiet -C "$out/before" > "$out/before.log" 2>&1 || { cat "$out/before.log"; fail "legacy before: build"; }
"$out/before/filters" 8 > "$out/before.out" || fail "legacy before: run"
"$COMPOSE" --runtime=starpu "$src/after/main.xml" -o "$out/legacy" > /dev/null 2> "$out/legacy.compose.log" ||
	{ cat "$out/legacy.compose.log"; fail "legacy: compose --runtime=starpu"; }
make_quiet -C "$out/legacy" > "$out/legacy.make.log" 2>&1 || { cat "$out/legacy.make.log"; fail "legacy: build for StarPU"; }
PEPPHER_HOME="$out/legacy-home" STARPU_HOME="$out/legacy-home/starpu" PEPPHER_NCPU=2 PEPPHER_STATS=1 \
	"$out/legacy/filters" 8 > "$out/legacy.out" 2> "$out/legacy.stats" ||
	{ cat "$out/legacy.stats"; fail "legacy on StarPU: run"; }
diff -u "$out/before.out" "$out/legacy.out" || fail "legacy on StarPU prints other images"
grep -q "blur/blur_[a-z]*: [1-9]" "$out/legacy.stats" || { cat "$out/legacy.stats"; fail "legacy: blur did not run through StarPU"; }
echo "legacy: the same digests as the plain program"
echo "PASS: dot, sgemm, spmv, mandelbrot and legacy on StarPU"
