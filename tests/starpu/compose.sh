#!/bin/sh
# compose --runtime=starpu: the same generated C as for libpeppher, a
# Makefile that links peppher-starpu; --runtime=starpu-mpi and unknown
# runtimes are refused with a clear error and nothing written.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/starpu/compose"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
main="$top_srcdir/examples/vector_scale/main.xml"

"$COMPOSE" "$main" -o "$out/peppher" 2> /dev/null || fail "compose"
"$COMPOSE" --runtime=starpu "$main" -o "$out/starpu" 2> /dev/null || fail "compose --runtime=starpu"
for f in "$out/peppher"/*; do
	name=$(basename "$f")
	[ "$name" = Makefile ] && continue
	cmp -s "$f" "$out/starpu/$name" || fail "$name differs between the runtimes"
done
grep -q -- "--libs peppher-starpu" "$out/starpu/Makefile" || fail "Makefile does not link peppher-starpu"
grep -q "peppher)" "$out/starpu/Makefile" && fail "Makefile still asks pkg-config for peppher"
sed 's/peppher-starpu/peppher/g' "$out/starpu/Makefile" | cmp -s - "$out/peppher/Makefile" ||
	fail "the Makefiles differ in more than the package"

for rt in starpu-mpi bogus; do
	"$COMPOSE" --runtime=$rt "$main" -o "$out/$rt" > "$out/$rt.log" 2>&1 &&
		fail "--runtime=$rt accepted"
	grep -q "^compose: error: --runtime=$rt: " "$out/$rt.log" || { cat "$out/$rt.log"; fail "no clear error for --runtime=$rt"; }
	[ -e "$out/$rt" ] && fail "--runtime=$rt wrote files"
done
echo "PASS: compose --runtime"
