#!/bin/sh
# examples/fig3 (containers: host reads and writes between asynchronous
# calls) on libpeppher and on StarPU: the same sums, with the calls on the
# OpenCL device alone (--disable-cpu) and with every variant.
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
echo "PASS: fig3 on StarPU"
