#!/bin/sh
# Install into a staging folder, then compose a copy of examples/vector_scale
# placed outside the source tree with the installed compose, build it with
# the generated Makefile against the installed libpeppher (its peppher.pc with
# the staging folder as prefix), and run it.  Then check that the component
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
sed "s|^prefix=.*|prefix=$stage/root$prefix|" "$pcdir/peppher.pc" > "$stage/pc/peppher.pc"
PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$stage/pc" make -s -C generated || { echo "FAIL: build"; exit 1; }
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
PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$stage/pc" make -s -C generated ||
	{ echo "FAIL: build axpy_app"; exit 1; }
PEPPHER_NCPU=2 ./generated/axpy_app > run.log 2>&1 || { cat run.log; echo "FAIL: run axpy_app"; exit 1; }
cat run.log
grep -q ": correct$" run.log || { echo "FAIL: wrong axpy result"; exit 1; }
echo "PASS: installed compose, libpeppher and repository"
