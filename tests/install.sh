#!/bin/sh
# Install into a staging folder, then compose a copy of examples/vector_scale
# placed outside the source tree with the installed compose, build it with
# the generated Makefile against the installed libpeppher (its peppher.pc with
# the staging folder as prefix), and run it; the installed .pc files give
# what a static link needs.  Then check that the component
# repository is installed whole, and compose an application that requires
# axpy by name only (no xmlFile) against the installed repository.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
stage="$top_builddir/tests/out/install"
rm -rf "$stage"
mkdir -p "$stage"
make -s -C "$top_builddir" install DESTDIR="$stage/root" > "$stage/install.log" 2>&1 ||
	{ cat "$stage/install.log"; echo "FAIL: make install"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/peppher.pc")
libdir=$(find "$stage/root" -name 'libpeppher.so' -printf '%h\n' | head -n 1)
pcdir=$(find "$stage/root" -name peppher.pc -printf '%h\n' | head -n 1)
for f in "$stage/root$prefix/bin/compose" "$stage/root$prefix/include/peppher/runtime.h" \
	"$stage/root$prefix/include/peppher/wrappers.h" \
	"$libdir/libpeppher.a" "$pcdir/peppher.pc"; do
	[ -f "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# internals (pph__) are not part of the library's interface
if command -v nm > /dev/null; then
	internal=$(nm -D --defined-only "$libdir/libpeppher.so" | awk '$3 ~ /^pph__/ { print $3 }')
	[ -z "$internal" ] || { echo "FAIL: libpeppher.so exports" $internal; exit 1; }
fi
cp -R "$top_srcdir/examples/vector_scale" "$stage/app"
chmod -R u+w "$stage/app"
cd "$stage/app" || exit 1
"$stage/root$prefix/bin/compose" main.xml -o generated || { echo "FAIL: compose"; exit 1; }
mkdir -p "$stage/pc"
for pc in "$pcdir"/peppher*.pc; do
	sed "s|^prefix=.*|prefix=$stage/root$prefix|" "$pc" > "$stage/pc/${pc##*/}"
done
# the installed .pc files before the build tree's (the -uninstalled ones),
# and the system's for what they require (hwloc.pc, starpu-1.3.pc)
stagepc() { env -u PKG_CONFIG_LIBDIR PKG_CONFIG_PATH="$stage/pc" "$@"; }
# the libraries a static link needs come with them: each requires its
# engine's .pc (Requires.private), whose own dependencies follow (StarPU's
# -lglpk ... were missing: its -lstarpu-1.3 was written out)
for pair in peppher:hwloc peppher-starpu:starpu-1.3 peppher-starpu-mpi:starpumpi-1.3; do
	pc=${pair%%:*} engine=${pair#*:}
	[ -f "$stage/pc/$pc.pc" ] || continue
	flags=$(stagepc pkg-config --cflags --libs "$pc") || { echo "FAIL: pkg-config --cflags --libs $pc"; exit 1; }
	case " $flags " in
	*" -I$stage/root$prefix/include "*" -lpeppher"*) ;;
	*) echo "FAIL: pkg-config --cflags --libs $pc: $flags"; exit 1 ;;
	esac
	static=" $(stagepc pkg-config --static --libs "$pc") "
	for word in $(pkg-config --static --libs "$engine"); do
		case $static in
		*" $word "*) ;;
		*) echo "FAIL: pkg-config --static --libs $pc lacks $engine's $word:$static"; exit 1 ;;
		esac
	done
	echo "pkg-config --static --libs $pc:$static"
done
stagepc make -s -C generated || { echo "FAIL: build"; exit 1; }
PEPPHER_NCPU=2 ./generated/vector_scale > run.log 2>&1 ||
	{ cat run.log; echo "FAIL: run"; exit 1; }
cat run.log
grep -q ": correct$" run.log || { echo "FAIL: wrong result"; exit 1; }
repo=$(find "$stage/root" -type d -name repository -path '*/share/*' | head -n 1)
[ -n "$repo" ] || { echo "FAIL: no repository installed"; exit 1; }
(cd "$top_srcdir/repository" && find . -type f | LC_ALL=C sort) > "$stage/repo.src"
(cd "$repo" && find . -type f | LC_ALL=C sort) > "$stage/repo.installed"
diff -u "$stage/repo.src" "$stage/repo.installed" || {
	echo "FAIL: repository/ and the installed repository differ (nobase_dist_pkgdata_DATA in Makefile.am)"
	exit 1
}
mkdir -p "$stage/axpy_app"
cat > "$stage/axpy_app/main.xml" <<'XML'
<?xml version="1.0"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
	<peppher:implementation name="main">
		<peppher:sourceFiles>
			<peppher:sourceFile version="1.0" language="C">
				<peppher:compilation>
					<peppher:compiler type="link">
						<peppher:name>gcc</peppher:name>
						<peppher:flags>-lm</peppher:flags>
						<peppher:output>axpy_app</peppher:output>
					</peppher:compiler>
				</peppher:compilation>
			</peppher:sourceFile>
			<peppher:sourceFile name="main.c" version="1.0" language="C">
				<peppher:compilation>
					<peppher:compiler>
						<peppher:name>gcc</peppher:name>
						<peppher:flags>-O2 -std=c11</peppher:flags>
					</peppher:compiler>
				</peppher:compilation>
			</peppher:sourceFile>
		</peppher:sourceFiles>
		<peppher:providedInterfaces>
			<peppher:providedInterface name="main" />
		</peppher:providedInterfaces>
		<peppher:requiredInterfaces>
			<peppher:requiredInterface name="axpy" templateArgs="float" />
		</peppher:requiredInterfaces>
	</peppher:implementation>
</peppher:component>
XML
cat > "$stage/axpy_app/main.c" <<'C'
#include <stdio.h>

#include "peppher.h"

int main(void)
{
	static float x[1000], y[1000];
	int i, bad = 0;

	for (i = 0; i < 1000; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	PEPPHER_INITIALIZE();
	axpy(1000, x, y, 2.0f);
	PEPPHER_SHUTDOWN();
	for (i = 0; i < 1000; i++)
		bad += y[i] != 2.0f * (float)i + 1.0f;
	printf("axpy from the installed repository: %s\n", bad ? "WRONG" : "correct");
	return bad != 0;
}
C
cd "$stage/axpy_app" || exit 1
PEPPHER_REPOSITORY="$repo" "$stage/root$prefix/bin/compose" main.xml -o generated ||
	{ echo "FAIL: compose against the installed repository"; exit 1; }
grep -q "root$prefix/share/[^/]*/repository/axpy/cpu/axpy_cpu.c" generated/Makefile ||
	{ echo "FAIL: axpy not taken from the installed repository"; exit 1; }
stagepc make -s -C generated || { echo "FAIL: build axpy_app"; exit 1; }
PEPPHER_NCPU=2 ./generated/axpy_app > run.log 2>&1 || { cat run.log; echo "FAIL: run axpy_app"; exit 1; }
cat run.log
grep -q ": correct$" run.log || { echo "FAIL: wrong axpy result"; exit 1; }
echo "PASS: installed compose, libpeppher and repository"
