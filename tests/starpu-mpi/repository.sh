#!/bin/sh
# The repository's components, composed by tests/repository/main.xml and
# checked by its check.c (every variant forced alone on raw pointers: run
# by every rank on its own data; then the composed calls on containers,
# whose owners are spread over the ranks), on 1, 2 and 4 ranks: every rank
# prints the lines libpeppher prints, and every rank ran tasks.
set -u
out="$top_builddir/tests/out/starpu-mpi/repository"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"
cp "$top_srcdir/tests/repository/main.xml" "$top_srcdir/tests/repository/check.c" "$out/"
chmod u+w "$out"/*

for rt in peppher starpu-mpi; do
	build $rt "$out" "$out/main.xml" -R "$top_srcdir/repository"
done
run_seq "$out" check_repository
for np in 1 2 4; do
	run_mpi "$out" $np check_repository
	same_results "$out" $np "correct$|^skip:|^FAIL"
	grep -q "^potrf, trsm, syrk, gemm .* correct$" "$out/np$np/$((np - 1)).log" || fail "incomplete on $np ranks"
	distributed "$out" $np
	echo "$np ranks: $(grep -c "correct$" "$out/np$np/0.log") lines correct on each rank"
done
echo "PASS: repository on StarPU-MPI"
