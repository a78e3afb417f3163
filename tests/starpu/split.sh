#!/bin/sh
# Partitioned calls and tile views on StarPU: examples/saxpy_split (one
# call split into blocks, StarPU filters) and examples/cholesky (a matrix
# tiled in place, calls on tiles as a task graph, on the repository's tile
# kernels) composed with --runtime=starpu are correct, as on libpeppher
# (tests/examples/saxpy_split.sh, cholesky.sh).  Residuals are not
# compared bit for bit: the order of the tile updates differs.
set -u
out="$top_builddir/tests/out/starpu/split"
rm -rf "$out"
mkdir -p "$out/saxpy" "$out/cholesky"
. "$top_srcdir/tests/starpu/common.sh"

build starpu "$out/saxpy" "$top_srcdir/examples/saxpy_split/main.xml"
run starpu "$out/saxpy" saxpy_split
grep -q ": correct$" "$out/saxpy/starpu.log" || { cat "$out/saxpy/starpu.log"; fail "saxpy_split: wrong result"; }
grep ": correct$" "$out/saxpy/starpu.log"
if [ -n "$(pkg-config --variable=opencl_libs peppher-starpu)" ]; then
	grep -q "saxpy/saxpy_opencl: [1-9]" "$out/saxpy/starpu.log" &&
		grep -q "saxpy/saxpy_cpu: [1-9]" "$out/saxpy/starpu.log" ||
		{ cat "$out/saxpy/starpu.log"; fail "saxpy_split: blocks not on both kinds of workers"; }
fi

build starpu "$out/cholesky" "$top_srcdir/examples/cholesky/main.xml" -R "$top_srcdir/repository"
for nb in "512 64" "480 32" "192 48"; do
	set -- $nb
	rm -rf "$out/cholesky/home-starpu"
	PEPPHER_HOME="$out/cholesky/home-starpu" STARPU_HOME="$out/cholesky/home-starpu/starpu" PEPPHER_NCPU=2 \
		"$out/cholesky/starpu/cholesky" "$1" "$2" > "$out/cholesky/run.log" 2>&1 ||
		{ cat "$out/cholesky/run.log"; fail "cholesky $1 $2"; }
	grep -q "^cholesky n $1 b $2: residual .*: correct$" "$out/cholesky/run.log" ||
		{ cat "$out/cholesky/run.log"; fail "cholesky $1 $2: wrong result"; }
	grep "residual" "$out/cholesky/run.log"
done
echo "PASS: partitioned calls and tiles on StarPU"
