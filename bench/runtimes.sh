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
for rt in peppher starpu; do
	"$COMPOSE" --runtime=$rt $opts -R "$top_srcdir/repository" "$top_srcdir/examples/cholesky/main.xml" \
		-o "$out/$rt" 2> "$out/$rt.compose.log" ||
		{ cat "$out/$rt.compose.log"; echo "bench/runtimes: compose failed"; exit 1; }
	make -s -C "$out/$rt" || { echo "bench/runtimes: build failed"; exit 1; }
done
for f in "$out/peppher"/*.c "$out/peppher"/*.h; do
	cmp -s "$f" "$out/starpu/$(basename "$f")" || { echo "bench/runtimes: $f differs"; exit 1; }
done
export PEPPHER_HOME="${PEPPHER_HOME:-$top_builddir/bench-home}"
export STARPU_HOME="${STARPU_HOME:-$PEPPHER_HOME/starpu}"
export STARPU_SILENT=1
mkdir -p "$STARPU_HOME"

# one run: its GFLOP/s, or exit when the result is wrong
gflops() {
	"$out/$1/cholesky" "$n" "$b" > "$out/$1.log" 2>&1 &&
		grep -q ": correct$" "$out/$1.log" || { cat "$out/$1.log"; echo "bench/runtimes: $1 failed"; exit 1; }
	sed -n 's/.* \([0-9.]*\) GFLOP\/s$/\1/p' "$out/$1.log"
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "bench/runtimes: tiled Cholesky n $n b $b, the same generated code on two runtimes,"
echo "$(nproc) cores, 1 calibration run each, then $reps alternate runs (median)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
gflops peppher > /dev/null
gflops starpu > /dev/null
p= s=
i=0
while [ $i -lt "$reps" ]; do
	p="$p $(gflops peppher)"
	s="$s $(gflops starpu)"
	i=$((i + 1))
done
pm=$(echo "$p" | median) sm=$(echo "$s" | median)
printf '%-22s %10s   runs:%s\n' "runtime" "GFLOP/s" ""
printf '%-22s %10s  %s\n' "libpeppher" "$pm" "$p"
printf '%-22s %10s  %s\n' "libpeppher-starpu" "$sm" "$s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v p="$pm" -v s="$sm" 'BEGIN { printf "ratio StarPU / libpeppher: %.2f\n", (p > 0 ? s / p : 0) }'
