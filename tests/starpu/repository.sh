#!/bin/sh
# The repository's components (axpy, scale, dot, nrm2, sgemm, dgemm, spmv,
# sort, potrf, trsm, syrk, gemm) composed by tests/repository/main.xml and
# checked by its check.c, every variant forced alone and the composed calls,
# on libpeppher and on StarPU: the same lines of results.
set -u
out="$top_builddir/tests/out/starpu/repository"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu/common.sh"
cuda_opt= # the CUDA variants compiled for both runtimes, GPU or not
cp "$top_srcdir/tests/repository/main.xml" "$top_srcdir/tests/repository/check.c" "$out/"
chmod u+w "$out"/*

for rt in peppher starpu; do
	build $rt "$out" "$out/main.xml" -R "$top_srcdir/repository"
	run $rt "$out" check_repository
done
same_results "$out" "correct$|^skip:|^FAIL"
grep -q "^potrf, trsm, syrk, gemm .* correct$" "$out/starpu.log" || fail "incomplete on StarPU"
grep "correct$" "$out/starpu.log"
echo "PASS: repository on StarPU"
