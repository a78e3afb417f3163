#!/bin/sh
# Compose tests/repository/main.xml, which requires every component of the
# shipped repository by name (no xmlFile: compose finds them under -R), build
# it with the generated Makefile against the build tree's libpeppher, and run
# check.c: every variant forced alone, then the composed calls, against
# sequential references.  CUDA variants are composed and compiled when this
# build has CUDA (nvcc), and run only where a GPU is present; OpenCL ones run
# on whatever devices the ICD offers (PoCL here).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/repository"
rm -rf "$out"
mkdir -p "$out"
cp "$top_srcdir/tests/repository/main.xml" "$top_srcdir/tests/repository/check.c" "$out/"
chmod u+w "$out"/*

# the sort variants' size arithmetic at sizes too large to sort here
${CC:-cc} -std=gnu11 -Wall -Werror -I"$top_srcdir/repository/common" \
	"$top_srcdir/tests/repository/sort_sizes.c" -o "$out/sort_sizes" && "$out/sort_sizes" ||
	{ echo "FAIL: sort sizes"; exit 1; }

"$COMPOSE" -R "$top_srcdir/repository" "$out/main.xml" -o "$out/generated" ||
	{ echo "FAIL: compose"; exit 1; }
# each variant's libraries come from its own descriptor's link step
grep "^	.*(OBJS) -lm " "$out/generated/Makefile" | grep -q -- "-lblas .*-llapacke" ||
	{ grep -n "PROGRAM):" -A1 "$out/generated/Makefile"; echo "FAIL: variants' libraries not linked"; exit 1; }
make -s -j2 -C "$out/generated" || { echo "FAIL: build"; exit 1; }
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/generated/check_repository" > "$out/run.log" 2>&1
rc=$?
cat "$out/run.log"
[ $rc -eq 0 ] || { echo "FAIL: check_repository exited with $rc"; exit 1; }
grep -q "^potrf, trsm, syrk, gemm .* correct$" "$out/run.log" && grep -q "^nrm2 scaled .* correct$" "$out/run.log" ||
	{ echo "FAIL: incomplete"; exit 1; }

# with clang, warnings as errors, each host variant's source compiles
# cleanly (clang's "loop not vectorized" on dot's and nrm2's double loops
# stopped a -Werror build)
printf 'int main(void) { return 0; }\n' > "$out/omp.c"
if command -v clang > /dev/null && command -v clang++ > /dev/null &&
	clang -fopenmp "$out/omp.c" -o "$out/omp" 2> /dev/null; then
	"$COMPOSE" -R "$top_srcdir/repository" --platforms=CPU,OPENMP,OPENCL "$out/main.xml" \
		-o "$out/clang" > "$out/clang.log" 2>&1 || { cat "$out/clang.log"; echo "FAIL: compose for clang"; exit 1; }
	env -u MAKEFLAGS make -s -j2 -C "$out/clang" CC=clang CXX=clang++ \
		CFLAGS="-O2 -Wall -Wextra -Werror" CXXFLAGS="-O2 -Wall -Wextra -Werror" ||
		{ echo "FAIL: clang -Werror build"; exit 1; }
else
	echo "clang with OpenMP not found: the clang -Werror build not tried"
fi
echo "PASS: repository"
