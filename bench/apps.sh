#!/bin/sh
# bench/apps: compose bench/apps/main.xml against the repository (CPU variants
# only: the peers run on CPU workers only), build it with the generated
# Makefile, StarPU's and OpenMP's flags added, and run it.  Arguments go to
# the program (apps -q for a quick run; see bench/apps/apps.c).
# Environment: COMPOSE, top_srcdir, top_builddir (as make bench sets them);
# PEPPHER_HOME and STARPU_HOME keep both runtimes' performance models.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/bench/out/apps"
mkdir -p "$out"
"$COMPOSE" --disable-cuda --disable-opencl -R "$top_srcdir/repository" \
	"$top_srcdir/bench/apps/main.xml" -o "$out" 2> "$out/compose.log" ||
	{ cat "$out/compose.log"; echo "bench/apps: compose failed"; exit 1; }
make -s -C "$out" CFLAGS="-O2 $(pkg-config --cflags starpu-1.3)" \
	LIBS="$(pkg-config --libs starpu-1.3)" || { echo "bench/apps: build failed"; exit 1; }
export PEPPHER_HOME="${PEPPHER_HOME:-$top_builddir/bench-home}"
export STARPU_HOME="${STARPU_HOME:-$top_builddir/bench-home/starpu}"
export STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
exec "$out/apps" "$@"
