#!/bin/sh
# Install into a staging folder, then compose a copy of examples/vector_scale
# placed outside the source tree with the installed compose, build it with
# the generated Makefile against the installed libpeppher (its peppher.pc with
# the staging folder as prefix), and run it.
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
	"$libdir/libpeppher.a" "$pcdir/peppher.pc"; do
	[ -f "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
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
echo "PASS: installed compose and libpeppher"
