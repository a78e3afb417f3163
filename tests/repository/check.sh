#!/bin/sh
# Compose tests/repository/main.xml, which requires every component of the
# shipped repository by name (no xmlFile: compose finds them under -R) but
# the reductions dot and nrm2, and reductions.xml, which requires those two
# (main.xml is also built on libpeppher-starpu by tests/starpu/repository.sh,
# which has no reductions yet); build each with the generated Makefile
# against the build tree's libpeppher, and run check.c: every variant forced
# alone, then the composed calls, against sequential references.  CUDA
# variants are composed and compiled when this build has CUDA (nvcc), and run
# only where a GPU is present; OpenCL ones run on whatever devices the ICD
# offers (PoCL here).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/repository"
rm -rf "$out"
mkdir -p "$out"
cp "$top_srcdir/tests/repository/main.xml" "$top_srcdir/tests/repository/reductions.xml" \
	"$top_srcdir/tests/repository/check.c" "$out/"
chmod u+w "$out"/*

# compose_build NAME: NAME.xml composed into and built in $out/NAME
compose_build() {
	"$COMPOSE" -R "$top_srcdir/repository" "$out/$1.xml" -o "$out/$1" || { echo "FAIL: compose $1"; exit 1; }
	make -s -j2 -C "$out/$1" || { echo "FAIL: build $1"; exit 1; }
}
# run NAME PROGRAM: run it, its output in $out/NAME.log
run() {
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/$1/$2" > "$out/$1.log" 2>&1
	rc=$?
	cat "$out/$1.log"
	[ $rc -eq 0 ] || { echo "FAIL: $2 exited with $rc"; exit 1; }
}

compose_build main
# each variant's libraries come from its own descriptor's link step
grep "^	.*(OBJS) -lm " "$out/main/Makefile" | grep -q -- "-lblas .*-llapacke" ||
	{ grep -n "PROGRAM):" -A1 "$out/main/Makefile"; echo "FAIL: variants' libraries not linked"; exit 1; }
run main check_repository
grep -q "^potrf, trsm, syrk, gemm .* correct$" "$out/main.log" || { echo "FAIL: incomplete"; exit 1; }
compose_build reductions
run reductions check_reductions
grep -q "^nrm2 scaled .* correct$" "$out/reductions.log" || { echo "FAIL: reductions incomplete"; exit 1; }
echo "PASS: repository"
