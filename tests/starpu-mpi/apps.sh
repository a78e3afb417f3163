#!/bin/sh
# The other examples composed with --runtime=starpu-mpi, on 1, 2 and 4
# ranks: dot (reductions, combined on the result's owner), sgemm and spmv
# (the repository's components), mandelbrot (a call split into blocks) and
# legacy (the PEPPHER-ized program, delegating through -Wl,--wrap).  Every
# rank checks its results against the sequential reference and must print
# the verdicts libpeppher prints (numbers dropped: a reduction's copies
# combine in StarPU's order); legacy's every rank the plain program's image
# digests.
set -u
out="$top_builddir/tests/out/starpu-mpi/apps"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"

# verdicts FILE: its result lines, numbers dropped
verdicts() {
	grep -E ": correct$|WRONG|wrong|differ:" "$1" | sed -E 's/[-+]?[0-9][0-9.e+-]*//g'
}

# check_ranks DIR NP: every rank printed libpeppher's verdicts
check_ranks() {
	verdicts "$1/peppher.log" > "$1/peppher.verdicts"
	[ -s "$1/peppher.verdicts" ] || { cat "$1/peppher.log"; fail "$1: no result on libpeppher"; }
	r=0
	while [ $r -lt "$2" ]; do
		verdicts "$1/np$2/$r.log" > "$1/np$2/$r.verdicts"
		diff -u "$1/peppher.verdicts" "$1/np$2/$r.verdicts" ||
			{ cat "$1/np$2/$r.log"; fail "$1: rank $r of $2: verdicts differ from libpeppher's"; }
		! grep -Eq "WRONG|wrong" "$1/np$2/$r.log" || fail "$1: rank $r of $2: a wrong result"
		r=$((r + 1))
	done
}

for ex in dot sgemm spmv mandelbrot; do
	mkdir -p "$out/$ex"
	for rt in peppher starpu-mpi; do
		build $rt "$out/$ex" "$top_srcdir/examples/$ex/main.xml" -R "$top_srcdir/repository"
	done
done
"$out/spmv/peppher/spmv" --generate lap2d 100 "$out/lap2d.mtx" > /dev/null || fail "generate lap2d"
run_seq "$out/dot" dot
run_seq "$out/sgemm" sgemm 200 157 90 3
run_seq "$out/spmv" spmv "$out/lap2d.mtx" 3
run_seq "$out/mandelbrot" mandelbrot

# legacy: the plain program's digests, and the PEPPHER-ized one for StarPU-MPI
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
src="$top_srcdir/examples/legacy"
cp -R "$src/before" "$out/before"
chmod -R u+w "$out/before"
make_quiet -C "$out/before" > "$out/before.log" 2>&1 || { cat "$out/before.log"; fail "legacy before: build"; }
"$out/before/filters" 4 > "$out/before.out" || fail "legacy before: run"
mkdir -p "$out/legacy"
"$COMPOSE" --runtime=starpu-mpi "$src/after/main.xml" -o "$out/legacy/starpu-mpi" > /dev/null \
	2> "$out/legacy/compose.log" || { cat "$out/legacy/compose.log"; fail "legacy: compose --runtime=starpu-mpi"; }
make_quiet -C "$out/legacy/starpu-mpi" > "$out/legacy/make.log" 2>&1 ||
	{ cat "$out/legacy/make.log"; fail "legacy: build for StarPU-MPI"; }

for np in 1 2 4; do
	# dot's probe waits for two of amax's blocks at once: two workers a rank
	PEPPHER_NCPU=2
	run_mpi "$out/dot" $np dot
	PEPPHER_NCPU=1
	check_ranks "$out/dot" $np
	run_mpi "$out/sgemm" $np sgemm 200 157 90 3
	check_ranks "$out/sgemm" $np
	run_mpi "$out/spmv" $np spmv "$out/lap2d.mtx" 3
	check_ranks "$out/spmv" $np
	run_mpi "$out/mandelbrot" $np mandelbrot
	check_ranks "$out/mandelbrot" $np
	run_mpi "$out/legacy" $np filters 4
	r=0
	while [ $r -lt $np ]; do
		diff -u "$out/before.out" "$out/legacy/np$np/out/1/rank.$r/stdout" ||
			fail "legacy: rank $r of $np prints other images"
		r=$((r + 1))
	done
	tasks=""
	for ex in dot sgemm spmv mandelbrot legacy; do
		r=0 t=""
		while [ $r -lt $np ]; do
			t="$t${t:+/}$(tasks_on "$out/$ex" $np $r)"
			r=$((r + 1))
		done
		tasks="$tasks $ex $t,"
	done
	echo "$np ranks: results as on libpeppher on every rank; tasks per rank:${tasks%,}"
done
echo "PASS: dot, sgemm, spmv, mandelbrot and legacy on StarPU-MPI"
