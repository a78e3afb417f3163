#!/bin/sh
# The paper's Fig. 3, composed: with the CPU variants left out every call runs
# on the OpenCL device (PoCL here) and the vector moves exactly twice (plus
# one copy of each 4-byte sum the host reads).  Composed with every variant,
# the result must be the same.  Skipped (77) without OpenCL.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
[ -n "$(pkg-config --variable=opencl_libs peppher)" ] || { echo "no OpenCL: skipped"; exit 77; }
out="$top_builddir/tests/out/examples/fig3"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" --disable-cpu "$top_srcdir/examples/fig3/main.xml" -o "$out/device" 2> /dev/null ||
	fail "compose --disable-cpu"
make -s -C "$out/device" || fail "build"
PEPPHER_HOME="$out/home" PEPPHER_STATS=1 "$out/device/fig3" > "$out/device.log" 2>&1 ||
	{ cat "$out/device.log"; fail "run on the device"; }
cat "$out/device.log"
grep -q ": correct$" "$out/device.log" || fail "wrong result on the device"
grep -qx "transfers: 0 to devices (0 bytes; 0 started when queued), 4 to host (32776 bytes)" "$out/device.log" ||
	fail "transfers: expected 2 of the vector (16384 bytes each) and 2 of the sums"

"$COMPOSE" "$top_srcdir/examples/fig3/main.xml" -o "$out/all" 2> /dev/null || fail "compose"
make -s -C "$out/all" || fail "build"
PEPPHER_HOME="$out/home" "$out/all/fig3" > "$out/all.log" 2>&1 ||
	{ cat "$out/all.log"; fail "run with every variant"; }
grep -q ": correct$" "$out/all.log" || fail "wrong result with every variant"
echo "PASS: fig3"
