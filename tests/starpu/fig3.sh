#!/bin/sh
# examples/fig3 (containers: host reads and writes between asynchronous
# calls) on libpeppher and on StarPU: the same sums, with the calls on the
# OpenCL device alone (--disable-cpu; then the same 4 transfers) and with
# every variant.
set -u
out="$top_builddir/tests/out/starpu/fig3"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu/common.sh"
[ -n "$(pkg-config --variable=opencl_libs peppher-starpu)" ] || { echo "no OpenCL: skipped"; exit 77; }
main="$top_srcdir/examples/fig3/main.xml"

for set in device all; do
	mkdir -p "$out/$set"
	opts=
	[ $set = device ] && opts=--disable-cpu
	for rt in peppher starpu; do
		build $rt "$out/$set" "$main" $opts
		run $rt "$out/$set" fig3
	done
	same_results "$out/$set" "^fig3: "
	grep -q ": correct$" "$out/$set/starpu.log" || fail "$set: wrong result on StarPU"
	echo "$set: $(grep "^fig3: " "$out/$set/starpu.log")"
done
grep -q "vsum/vsum_opencl: [1-9]" "$out/device/starpu.log" || fail "the OpenCL variants did not run"
# on the device, StarPU moves the data as libpeppher does: the vector twice,
# each 4-byte sum once (counted by StarPU's bus profiling, on with PEPPHER_STATS=1)
grep -qx "transfers: 0 to devices (0 bytes), 4 to host (32776 bytes)" "$out/device/starpu.log" ||
	{ grep transfers "$out/device/starpu.log"; fail "transfers on the device: expected 2 of the vector and 2 of the sums"; }
echo "PASS: fig3 on StarPU"
