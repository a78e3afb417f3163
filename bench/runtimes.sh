#!/bin/sh
# bench/runtimes: the tiled Cholesky of examples/cholesky (on the
# repository's tile kernels), composed once per runtime: the generated C is
# the same, the Makefile links libpeppher (compose's default) or
# libpeppher-starpu (--runtime=starpu).  Both programs run in this one run,
# alternately, after a calibration run each; prints each runtime's median
# GFLOP/s and the ratio StarPU / libpeppher.  CPU variants and CPU workers
# only by default (PEPPHER_NOPENCL=0): PoCL's OpenCL device would share the
# same cores, and StarPU gives each OpenCL device a driver thread that polls
# on a core of its own (BENCH_OPENCL=1 keeps the device and its variants).
# The timings of other processes' load count: the load average is printed.
#
# Where libpeppher-starpu-mpi is built, the same code composed with
# --runtime=starpu-mpi runs too, under mpirun on 1, 2 and 4 ranks of this
# one machine: the ranks share its cores (each rank gets cores / ranks CPU
# workers, at least one), so more ranks cannot be faster here; the figures
# show what the distribution costs (tiles sent between processes, one
# progress thread per rank).  doc/distributed.md models the communication
# volume that decides scaling over N machines.  GFLOP/s of rank 0, timed
# up to pph_task_wait_all, which waits for every rank.
#
# Usage: runtimes.sh [-q] [n b [reps]]   (default 2048 256 5; -q: 512 128 3)
# Environment: COMPOSE, top_srcdir, top_builddir (as make bench sets them).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
n=2048 b=256 reps=5
if [ "${1:-}" = -q ]; then
	n=512 b=128 reps=3
	shift
fi
n=${1:-$n} b=${2:-$b} reps=${3:-$reps}
pkg-config --exists peppher-starpu || { echo "bench/runtimes: libpeppher-starpu not built: skipped"; exit 0; }
out="$top_builddir/bench/out/runtimes"
mkdir -p "$out"
opts="--disable-cuda --disable-opencl"
if [ "${BENCH_OPENCL:-0}" = 1 ]; then
	opts=--disable-cuda
else
	export PEPPHER_NOPENCL=0
fi
runtimes="peppher starpu"
mpirun=
if pkg-config --exists peppher-starpu-mpi; then
	mpirun=$(pkg-config --variable=mpirun peppher-starpu-mpi)
	[ -x "$mpirun" ] && runtimes="$runtimes starpu-mpi" || mpirun=
fi
for rt in $runtimes; do
	"$COMPOSE" --runtime=$rt $opts -R "$top_srcdir/repository" "$top_srcdir/examples/cholesky/main.xml" \
		-o "$out/$rt" 2> "$out/$rt.compose.log" ||
		{ cat "$out/$rt.compose.log"; echo "bench/runtimes: compose failed"; exit 1; }
	make -s -C "$out/$rt" || { echo "bench/runtimes: build failed"; exit 1; }
done
for rt in $runtimes; do
	for f in "$out/peppher"/*.c "$out/peppher"/*.h; do
		cmp -s "$f" "$out/$rt/$(basename "$f")" || { echo "bench/runtimes: $f differs for $rt"; exit 1; }
	done
done
export PEPPHER_HOME="${PEPPHER_HOME:-$top_builddir/bench-home}"
export STARPU_HOME="${STARPU_HOME:-$PEPPHER_HOME/starpu}"
export STARPU_SILENT=1
mkdir -p "$STARPU_HOME"

# one run: its GFLOP/s, or exit when the result is wrong.  mpiN: N ranks
# of the starpu-mpi build, rank 0's figure
gflops() {
	case $1 in
	mpi*)
		np=${1#mpi} ncpu=$(($(nproc) / ${1#mpi}))
		[ $ncpu -ge 1 ] || ncpu=1
		rm -rf "$out/$1.out"
		PEPPHER_NCPU=$ncpu "$mpirun" --allow-run-as-root --oversubscribe --bind-to none \
			--output-filename "$out/$1.out" -np "$np" "$out/starpu-mpi/cholesky" "$n" "$b" \
			> "$out/$1.mpirun.log" 2>&1 && cat "$out/$1.out/1/rank.0/stdout" > "$out/$1.log" ;;
	*)
		"$out/$1/cholesky" "$n" "$b" > "$out/$1.log" 2>&1 ;;
	esac &&
		grep -q ": correct$" "$out/$1.log" || { cat "$out/$1.log"; echo "bench/runtimes: $1 failed"; exit 1; }
	sed -n 's/.* \([0-9.]*\) GFLOP\/s$/\1/p' "$out/$1.log"
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

runs="peppher starpu"
[ -n "$mpirun" ] && runs="$runs mpi1 mpi2 mpi4"
echo "bench/runtimes: tiled Cholesky n $n b $b, the same generated code on each runtime,"
echo "$(nproc) cores, 1 calibration run each, then $reps alternate runs (median)"
[ -n "$mpirun" ] && echo "starpu-mpi: N ranks on this one machine share its $(nproc) cores (CPU workers per rank: cores / N, at least 1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $runs; do
	gflops $r > /dev/null
	eval "g_$r="
done
i=0
while [ $i -lt "$reps" ]; do
	for r in $runs; do
		eval "g_$r=\"\$g_$r $(gflops $r)\""
	done
	i=$((i + 1))
done
name() {
	case $1 in
	peppher) echo libpeppher ;;
	starpu) echo libpeppher-starpu ;;
	mpi1) echo "starpu-mpi, 1 rank" ;;
	mpi*) echo "starpu-mpi, ${1#mpi} ranks" ;;
	esac
}
pm=$(echo "$g_peppher" | median)
printf '%-22s %10s %10s   runs\n' "runtime" "GFLOP/s" "/ libpeppher"
for r in $runs; do
	eval "g=\$g_$r"
	m=$(echo "$g" | median)
	printf '%-22s %10s %10s  %s\n' "$(name $r)" "$m" "$(awk -v p="$pm" -v m="$m" 'BEGIN { printf "%.2f", (p > 0 ? m / p : 0) }')" "$g"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
sm=$(echo "$g_starpu" | median)
awk -v p="$pm" -v s="$sm" 'BEGIN { printf "ratio StarPU / libpeppher: %.2f\n", (p > 0 ? s / p : 0) }'
