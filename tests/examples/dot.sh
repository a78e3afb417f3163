#!/bin/sh
# examples/dot, composed against the repository's dot and nrm2 and its own
# amax: reductions on calls split into 8 blocks, on 2 CPU workers.  Checks
# the results against sequential references, that amax's blocks ran at
# once, and that the blocks of dot went to both workers; again with C++
# entry wrappers.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/examples/dot"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$COMPOSE" -R "$top_srcdir/repository" "$top_srcdir/examples/dot/main.xml" -o "$out" 2> "$out/compose.log" ||
	{ cat "$out/compose.log"; fail "compose"; }
make -s -C "$out" || fail "build"
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 PEPPHER_STATS=1 "$out/dot" > "$out/run.log" 2>&1 ||
	{ cat "$out/run.log"; fail "run"; }
cat "$out/run.log"
grep -q "^dot: correct$" "$out/run.log" || fail "wrong result"
workers=$(awk '/^worker/ { w = $2 } /dot_double\/dot_[a-z]*_double: [1-9]/ { seen[w] = 1 }
	END { print length(seen) }' "$out/run.log")
[ "$workers" -ge 2 ] || fail "dot blocks on both CPU workers"

# C++ entry wrappers: they declare amax's C functions (main.c) with C
# linkage (declared as C++ functions, the program did not link)
"$COMPOSE" --wrapper-ext=cpp -R "$top_srcdir/repository" "$top_srcdir/examples/dot/main.xml" \
	-o "$out/cxx" 2> "$out/compose-cxx.log" || { cat "$out/compose-cxx.log"; fail "compose --wrapper-ext=cpp"; }
make -s -C "$out/cxx" || fail "build with C++ entry wrappers"
PEPPHER_HOME="$out/home" PEPPHER_NCPU=2 "$out/cxx/dot" > "$out/run-cxx.log" 2>&1 ||
	{ cat "$out/run-cxx.log"; fail "run with C++ entry wrappers"; }
grep -q "^dot: correct$" "$out/run-cxx.log" || fail "wrong result with C++ entry wrappers"
echo "PASS: dot"
