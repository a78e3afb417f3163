#!/bin/sh
# compose --runtime=starpu and --runtime=starpu-mpi: the same generated C
# as for libpeppher, a Makefile that links peppher-starpu (peppher-starpu-mpi)
# and differs in nothing else (NAME.flags name the runtime, so that make
# compiles again for another); unknown runtimes are refused with a clear
# error and nothing written.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/starpu/compose"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
main="$top_srcdir/examples/vector_scale/main.xml"

"$COMPOSE" "$main" -o "$out/peppher" 2> /dev/null || fail "compose"
for rt in starpu starpu-mpi; do
	pc=peppher-$rt
	"$COMPOSE" --runtime=$rt "$main" -o "$out/$rt" 2> /dev/null || fail "compose --runtime=$rt"
	for f in "$out/peppher"/*; do
		name=$(basename "$f")
		case "$name" in
		Makefile) continue ;;
		*.flags) # the compile rules, with the runtime they compile for
			sed "s/^# runtime: $pc\$/# runtime: peppher/" "$out/$rt/$name" | cmp -s - "$f" ||
				fail "$name differs between peppher and $rt in more than the runtime"
			continue ;;
		esac
		cmp -s "$f" "$out/$rt/$name" || fail "$name differs between peppher and $rt"
	done
	grep -q -- "\$(PKG_CONFIG) \$1 $pc)" "$out/$rt/Makefile" || fail "Makefile does not link $pc"
	grep -q "peppher)" "$out/$rt/Makefile" && fail "Makefile still asks pkg-config for peppher"
	sed "s/$pc/peppher/g" "$out/$rt/Makefile" | cmp -s - "$out/peppher/Makefile" ||
		fail "the Makefiles of peppher and $rt differ in more than the package"
done

for rt in bogus mpi; do
	"$COMPOSE" --runtime=$rt "$main" -o "$out/$rt" > "$out/$rt.log" 2>&1 &&
		fail "--runtime=$rt accepted"
	grep -q "^compose: error: --runtime=$rt: expected peppher, starpu or starpu-mpi$" "$out/$rt.log" ||
		{ cat "$out/$rt.log"; fail "no clear error for --runtime=$rt"; }
	[ -e "$out/$rt" ] && fail "--runtime=$rt wrote files"
done
echo "PASS: compose --runtime"
