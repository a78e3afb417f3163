#!/bin/sh
# compose's narrowing options, in both spellings, and --graph.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/options"
rm -rf "$out"
mkdir -p "$out"
main="$top_srcdir/examples/vector_scale/main.xml"
fail() { echo "FAIL: $*"; exit 1; }

# PEPPHER spellings: only the blocked CPU variant is left
"$COMPOSE" -disableImpls=vector_scale_cpu_loop,vector_scale_openmp -disableCUDA -disableOpenCL \
	--graph="$out/g.dot" "$main" -o "$out/a" 2> "$out/a.err" || fail "compose a"
grep -c '{ PPH_ARCH_' "$out/a/vector_scale_entry.c" | grep -qx 1 || fail "a: impls"
grep -q 'vector_scale_cpu_blocked_backend, "vector_scale_cpu_blocked"' "$out/a/vector_scale_entry.c" ||
	fail "a: blocked variant missing"
grep -q "note: skipping 'vector_scale_cuda': CUDA disabled on the command line" "$out/a.err" ||
	fail "a: note for CUDA"
grep -q "note: skipping 'vector_scale_openmp': disabled by --disable-impls" "$out/a.err" ||
	fail "a: note for openmp"
ls "$out/a" | grep -q cuda && fail "a: CUDA backend generated"
grep -q '"impl:vector_scale_cuda" \[shape=box, style=dashed, color=gray, fontcolor=gray, label="vector_scale_cuda\\nCUDA\\n(CUDA disabled on the command line)"\];' "$out/g.dot" ||
	fail "graph: excluded CUDA variant"
grep -q '"main" -> "iface:vector_scale";' "$out/g.dot" || fail "graph: main edge"

# GNU spellings give the same files
"$COMPOSE" --disable-impls=vector_scale_cpu_loop,vector_scale_openmp --disable-cuda --disable-opencl \
	"$main" -o "$out/b" 2> /dev/null || fail "compose b"
diff -r "$out/a" "$out/b" || fail "spellings differ"

# disabling every CPU variant of a CPU-only build is an error, naming the interface
"$COMPOSE" --disable-cpu --platforms=CPU,OPENMP "$main" -o "$out/c" 2> "$out/c.err" &&
	fail "compose c succeeded"
grep -q "vector_scale.xml:4: error: interface 'vector_scale' has no enabled implementation" "$out/c.err" ||
	{ cat "$out/c.err"; fail "c: diagnostic"; }
[ -e "$out/c/peppher.h" ] && fail "c: output written"

# --dry-run writes nothing
"$COMPOSE" --dry-run "$main" -o "$out/d" > "$out/d.list" || fail "dry run"
grep -q "/d/Makefile$" "$out/d.list" || fail "dry run list"
[ -z "$(ls -A "$out/d")" ] || fail "dry run wrote files"
echo "PASS: options"
