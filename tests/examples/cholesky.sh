#!/bin/sh
# examples/cholesky, composed against the repository's tile kernels: a tiled
# Cholesky factorization whose calls on tiles run as a task graph.  Checks
# the residual, and that the tasks spread over both CPU workers; the first
# run may use the OpenCL device too (PoCL here), the second CPU workers only.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/cholesky"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/platforms.sh"
cuda_opt=$(no_gpu_cuda) # CUDA variants left out where no GPU is
# shellcheck disable=SC2086
"$COMPOSE" -R "$top_srcdir/repository" $cuda_opt "$top_srcdir/examples/cholesky/main.xml" -o "$out" 2> /dev/null ||
	fail "compose"
make -s -C "$out" || fail "build"
run() { # log n b [VAR=value...]
	log=$1 n=$2 b=$3
	shift 3
	env PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$@" "$out/cholesky" "$n" "$b" \
		> "$out/$log" 2>&1 || { cat "$out/$log"; fail "run $n $b"; }
	cat "$out/$log"
	grep -q "^cholesky n $n b $b: residual .*: correct$" "$out/$log" || fail "wrong result ($n, $b)"
}
run all.log 512 64
run cpu.log 480 32 PEPPHER_NOPENCL=0
# 15 tile columns: both CPU workers ran gemm tiles
[ "$(grep -c 'gemm/gemm_cblas: [1-9]' "$out/cpu.log")" -eq 2 ] || fail "gemm tiles on both CPU workers"
echo "PASS: cholesky"
