#!/bin/sh
# Build the direct version of evaluation application APP into OUT/APP: its
# main.c and APP_seq.c unchanged (main.c finds direct/APP/peppher.h), the
# same variant sources as the composed program (for spmv and sgemm, the
# repository's components), and the hand-written task code of direct/APP.
# The CUDA variants too where ../cuda.sh says so (a GPU, or EVAL_CUDA=1).
# CFLAGS are added to every C compilation, as the composed program's
# Makefile does.
#   build.sh APP OUT          (PKG_CONFIG_PATH must find peppher)
set -eu
app=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../$app
variants=$src
[ -d "$here/../../repository/$app" ] && variants=$(cd "$here/../../repository/$app" && pwd)
mkdir -p "$out"
# VARIANTS_DIR: where a variant's OpenCL kernel file is (spmv.cl)
cflags="-O2 -std=gnu11 -Werror=implicit-function-declaration $(pkg-config --cflags peppher) ${CFLAGS:-}"
cflags="$cflags -DVARIANTS_DIR=\"$variants\""
libs="$(pkg-config --libs peppher) $(pkg-config --variable=opencl_libs peppher) -lm"
grep -rqs cblas.h "$variants" && libs="$libs -lblas"
objs=
cc_one() { # source, extra flags
	o=$out/$(echo "$1" | sed "s|^$here/../||; s|^$variants/|v_|; s|[/.]|_|g").o
	gcc $cflags $2 -I"$here/$app" -c "$1" -o "$o"
	objs="$objs $o"
}
. "$here/../cuda.sh"
cuda=
if eval_cuda && command -v nvcc > /dev/null; then
	cuda=-DDIRECT_CUDA
	for f in $(find "$src" "$variants" "$here/$app" -name '*.cu' | sort -u); do
		o=$out/$(echo "$f" | sed "s|^$here/../||; s|^$variants/|v_|; s|[/.]|_|g").o
		nvcc -O2 $(pkg-config --cflags peppher) -c "$f" -o "$o"
		objs="$objs $o"
	done
	libs="$libs $(pkg-config --variable=cuda_libs peppher) -lstdc++"
	[ "$variants" = "$src" ] || libs="$libs -lcublas -lcusparse"
fi
for f in $(find "$src" "$variants" -name '*.c' | sort -u); do
	case $f in */openmp/*) cc_one "$f" -fopenmp ;; *) cc_one "$f" "" ;; esac
done
for f in $(find "$here/$app" -name '*.c' | sort); do
	cc_one "$f" "-fopenmp $cuda"
done
# libgomp before libpeppher, as compose links it (its wait policy)
gcc -o "$out/$app" $objs -fopenmp $(pkg-config --variable=openmp_libs peppher) $libs
