#!/bin/sh
# Compose evaluation application APP with the freshly built compose, build it
# with the generated Makefile, run it at its quick size and check it against
# its sequential reference; every CPU, OpenMP and OpenCL (with each built
# in) and CUDA (where they are composed) variant named must have run at
# least once.  The models start empty and dmda explores each variant before
# choosing, several calls in a row each: a quick run may end before it has
# tried them all, so the program runs again, up to RUNS times, as long as
# some named variant has not run yet.  MAIN_XML names another main
# descriptor of APP than main.xml.
#   check.sh APP [MIN_RUN_VARIANTS...]
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
app=$1
shift
src="$top_srcdir/evaluation/$app"
main=${MAIN_XML:-main.xml}
out="$top_builddir/tests/out/evaluation/$app${MAIN_XML:+-${main%.xml}}"
rm -rf "$out"
mkdir -p "$out"

# CUDA variants cannot run without a GPU: make check leaves them out there
# to stay quick, and composes, runs and checks them where a device is seen
# (cuda.sh).  spmv and sgemm take their components from the repository (-R).
. "$top_srcdir/evaluation/cuda.sh"
. "$top_srcdir/tests/platforms.sh"
cuda=--disable-cuda
eval_cuda && cuda=
"$COMPOSE" $cuda -R "$top_srcdir/repository" "$src/$main" -o "$out" > "$out/compose.log" 2>&1 ||
	{ cat "$out/compose.log"; echo "FAIL: compose $app"; exit 1; }
make -s -C "$out" > "$out/make.log" 2>&1 || { cat "$out/make.log"; echo "FAIL: build $app"; exit 1; }
opencl=$(pkg-config --variable=opencl_libs peppher)
: > "$out/runs.log"
runs=0
while :; do
	runs=$((runs + 1))
	PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/$app" quick > "$out/run.log" 2>&1
	rc=$?
	echo "== run $runs" | tee -a "$out/runs.log"
	tee -a "$out/runs.log" < "$out/run.log"
	[ $rc -eq 0 ] || { echo "FAIL: $app exited with $rc"; exit 1; }
	grep -q "^$app: size [0-9]*: .* s: correct" "$out/run.log" ||
		{ echo "FAIL: $app: wrong result"; exit 1; }
	missing=
	for variant in "$@"; do
		case $variant in
		*_omp) have_platform OPENMP || continue ;;
		*_ocl) [ -n "$opencl" ] || continue ;;
		*_cuda | *_cublas | *_cusparse)
			[ -z "$cuda" ] && grep -q "(CUDA)" "$out/run.log" || continue ;;
		esac
		grep -q "/$variant: [1-9]" "$out/runs.log" || missing="$missing $variant"
	done
	[ -z "$missing" ] && break
	[ $runs -lt "${RUNS:-8}" ] || { echo "FAIL:$missing never ran in $runs runs"; exit 1; }
done
echo "PASS: $app ($runs runs)"
