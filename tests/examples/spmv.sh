#!/bin/sh
# examples/spmv, composed against the repository's spmv: matrices generated
# by the example (2-D and 3-D Laplacians, power-law rows) and a small
# symmetric pattern file, each read back through its Matrix Market reader,
# multiplied and checked against a sequential product.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/spmv"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" -R "$top_srcdir/repository" "$top_srcdir/examples/spmv/main.xml" -o "$out" 2> /dev/null ||
	fail "compose"
make -s -C "$out" || fail "build"
"$out/spmv" --generate lap2d 150 "$out/lap2d.mtx" || fail "generate lap2d"
"$out/spmv" --generate lap3d 25 "$out/lap3d.mtx" || fail "generate lap3d"
"$out/spmv" --generate powerlaw 20000 "$out/powerlaw.mtx" || fail "generate powerlaw"
grep -qx "22500 22500 111900" "$out/lap2d.mtx" || fail "lap2d: 5 n^2 - 4 n entries"
grep -qx "15625 15625 105625" "$out/lap3d.mtx" || fail "lap3d: 7 n^3 - 6 n^2 entries"
cat > "$out/sym.mtx" << 'MTX'
%%MatrixMarket matrix coordinate pattern symmetric
% a 4 x 4 arrow: the lower triangle only
4 4 7
1 1
2 1
3 1
4 1
2 2
3 3
4 4
MTX
for m in lap2d lap3d powerlaw sym; do
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/spmv" "$out/$m.mtx" 6 > "$out/$m.log" 2>&1 ||
		{ cat "$out/$m.log"; fail "run $m"; }
	cat "$out/$m.log"
	grep -q ": correct$" "$out/$m.log" || fail "wrong result ($m)"
done
grep -q ": 4 x 4, 10 nonzeros," "$out/sym.log" || fail "symmetric file: 10 entries expected"
"$out/spmv" "$out/nowhere.mtx" > /dev/null 2>&1 && fail "a missing file is an error"
echo "PASS: spmv"
