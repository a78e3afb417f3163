#!/bin/sh
# What compose warns of in descriptors it accepts: a pointer to numbers
# without numElements beside a count that sizes nothing (a forgotten size:
# the call would register one element), and nothing where the count sizes
# the pointer or where the pointer is one result beside an expression's count.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/warnings"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

cp -r "$top_srcdir/examples/vector_scale" "$out/tree"
cd "$out/tree" || exit 1
"$COMPOSE" --platforms=CPU main.xml -o ../as-given 2> ../as-given.err || fail "vector_scale as given"
grep "warning" ../as-given.err && fail "vector_scale as given: a warning"

sed -i 's/ numElements="n"//' vector_scale.xml
"$COMPOSE" --platforms=CPU main.xml -o ../forgotten 2> ../forgotten.err || fail "vector_scale without numElements"
grep -v "note:" ../forgotten.err > ../forgotten.msg
printf '%s\n' "vector_scale.xml:6: warning: 'x' has no numElements, so a call registers one element of it, and 'n' sizes nothing: if 'x' holds 'n' elements, give it numElements=\"n\"" |
	diff -u - ../forgotten.msg || fail "forgotten numElements: not said as expected"

# one result beside a count an expression uses: nothing to say
sed -i 's|type="float \*" accessMode="readwrite"/>|type="float *" accessMode="readwrite"/>\n      <peppher:parameter name="y" type="float *" accessMode="read" numElements="2 * n"/>|' vector_scale.xml
grep -q 'numElements="2 \* n"' vector_scale.xml || fail "the tree was not edited"
# the variants now lack y: their prototypes are not checked
"$COMPOSE" --no-check-sources --platforms=CPU main.xml -o ../result 2> ../result.err || { cat ../result.err; fail "a count an expression uses: compose"; }
grep "sizes nothing" ../result.err && fail "a count an expression uses: warned"
echo "PASS: warnings"
