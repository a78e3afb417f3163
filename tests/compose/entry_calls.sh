#!/bin/sh
# What entry wrappers check and pass on a call, run on libpeppher and on
# libpeppher-starpu:
# - a container's sizes are its own: a size parameter that names one must
#   be that size, and so must every container's naming the same parameter
#   (an 8 x 6 matrix and a vector of 4, both of "r" elements, let the variant
#   write 8 elements into the 4);
# - a partitioned call given one container twice (dot(x, x)) partitions it
#   once (the second partition failed every such call);
# - a partitioned call on a raw pointer whose int size is negative registers
#   no element (it registered 2^64 - 1 and handed the variant a wild pointer);
# and that the generated Makefile rebuilds what includes a header of the
# application's own when it changes (it rebuilt nothing).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
work="$top_builddir/tests/out/compose/entry_calls"
rm -rf "$work"
mkdir -p "$work/src"
fail() { echo "FAIL: $*"; exit 1; }
cd "$work/src" || exit 1

ns='xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1"'
interface() { # name parameters...
	name=$1
	shift
	{
		echo "<peppher:component $ns><peppher:interface name=\"$name\"><peppher:parameters>"
		for p in "$@"; do echo "<peppher:parameter $p/>"; done
		echo "</peppher:parameters></peppher:interface></peppher:component>"
	} > "$name.xml"
	mkdir -p "$name/cpu"
	cat > "$name/cpu/${name}_cpu.xml" << EOF
<peppher:component $ns><peppher:implementation name="${name}_cpu">
<peppher:sourceFiles><peppher:sourceFile name="${name}_cpu.c" language="C"><peppher:compilation>
<peppher:compiler><peppher:name>gcc</peppher:name><peppher:flags>-O2</peppher:flags></peppher:compiler>
</peppher:compilation></peppher:sourceFile></peppher:sourceFiles>
<peppher:providedInterfaces><peppher:providedInterface name="$name"/></peppher:providedInterfaces>
<peppher:targetPlatform name="CPU"/></peppher:implementation></peppher:component>
EOF
}

interface mrow 'name="m" type="pph_matrix *" elemType="double" accessMode="read" numElements="r,c"' \
	'name="out" type="pph_vector *" elemType="double" accessMode="write" numElements="r"' \
	'name="r" type="unsigned" accessMode="read"' 'name="c" type="unsigned" accessMode="read"'
cat > mrow/cpu/mrow_cpu.c << 'EOF'
void mrow_cpu(const double *m, double *out, unsigned r, unsigned c)
{
	for (unsigned i = 0; i < r; i++) {
		out[i] = 0;
		for (unsigned j = 0; j < c; j++)
			out[i] += m[i * c + j];
	}
}
EOF
interface sumsq 'name="x" type="pph_vector *" elemType="double" accessMode="read" numElements="n" partition="auto"' \
	'name="y" type="pph_vector *" elemType="double" accessMode="read" numElements="n" partition="auto"' \
	'name="r" type="pph_scalar *" elemType="double" accessMode="reduction" reduction="sum"' \
	'name="n" type="int" accessMode="read"'
cat > sumsq/cpu/sumsq_cpu.c << 'EOF'
void sumsq_cpu(const double *x, const double *y, double *r, int n)
{
	for (int i = 0; i < n; i++)
		*r += x[i] * y[i];
}
EOF
interface pfill 'name="y" type="char *" accessMode="readwrite" numElements="n" partition="auto"' \
	'name="n" type="int" accessMode="read"'
cat > pfill/cpu/pfill_cpu.c << 'EOF'
#include <stdint.h>

int pfill_elements; /* what the variants got, all blocks */

void pfill_cpu(char *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = 'a';
	__atomic_add_fetch(&pfill_elements, n, __ATOMIC_RELAXED);
}
EOF
echo '#define ROWS 8' > app.h
cat > main.c << 'EOF'
#include <stdio.h>

#include "app.h"
#include "peppher.h"

extern int pfill_elements;

int main(void)
{
	double m[ROWS * 6], ref = 0;
	char b[8] = "-------";
	pph_matrix *M;
	pph_vector *O4, *O8, *X;
	pph_scalar *R;
	int i;

	for (i = 0; i < 8 * 6; i++)
		m[i] = i;
	PEPPHER_INITIALIZE();
	M = pph_matrix_wrap(m, 8, 6, sizeof(double));
	O4 = pph_vector_create_double(4);
	O8 = pph_vector_create_double(8);
	mrow(M, O4, 8, 6); /* refused: out has 4 elements, not 8 */
	mrow(M, O8, 2, 6); /* refused: m has 8 rows, not 2 */
	mrow(M, O8, 8, 6);
	printf("rows: %g %g, untouched %g\n", PPH_VECTOR_GET(O8, double, 0),
	       PPH_VECTOR_GET(O8, double, 7), PPH_VECTOR_GET(O4, double, 3));
	X = pph_vector_create_double(1000);
	for (i = 0; i < 1000; i++) {
		PPH_VECTOR_SET(X, double, i, i % 7 - 3);
		ref += (i % 7 - 3) * (i % 7 - 3);
	}
	R = pph_scalar_create(sizeof(double));
	PPH_SCALAR_SET(R, double, 0);
	sumsq(X, X, R, 1000);
	printf("x . x = %g (expected %g)\n", PPH_SCALAR_GET(R, double), ref);
	pfill(b, -1);
	pfill(b, 3);
	printf("pfill: %s, %d elements\n", b, pfill_elements);
	pph_scalar_destroy(R);
	pph_vector_destroy(X);
	pph_vector_destroy(O8);
	pph_vector_destroy(O4);
	pph_matrix_destroy(M);
	PEPPHER_SHUTDOWN();
	return 0;
}
EOF
cat > main.xml << EOF
<peppher:component $ns><peppher:implementation name="main"><peppher:sourceFiles>
<peppher:sourceFile><peppher:compilation><peppher:compiler type="link"><peppher:name>gcc</peppher:name>
<peppher:output>app</peppher:output></peppher:compiler></peppher:compilation></peppher:sourceFile>
<peppher:sourceFile name="main.c" language="C"><peppher:compilation><peppher:compiler>
<peppher:name>gcc</peppher:name><peppher:flags>-O2</peppher:flags></peppher:compiler></peppher:compilation>
</peppher:sourceFile></peppher:sourceFiles><peppher:requiredInterfaces>
<peppher:requiredInterface name="mrow" xmlFile="mrow.xml"/>
<peppher:requiredInterface name="sumsq" xmlFile="sumsq.xml"/>
<peppher:requiredInterface name="pfill" xmlFile="pfill.xml"/>
</peppher:requiredInterfaces></peppher:implementation></peppher:component>
EOF

cat > "$work/expected.out" << 'EOF'
rows: 15 267, untouched 0
x . x = 3995 (expected 3995)
pfill: aaa----, 3 elements
EOF
cat > "$work/expected.err" << 'EOF'
peppher: mrow: 'r' is 8, but vector 'out' has 4 elements
peppher: mrow: call failed: Invalid argument
peppher: mrow: 'r' is 2, but matrix 'm' has 8 rows
peppher: mrow: call failed: Invalid argument
peppher: 2 calls failed, their data as it was; stopping
EOF

runtimes=peppher
pkg-config --exists peppher-starpu 2> /dev/null && runtimes="$runtimes starpu"
for rt in $runtimes; do
	"$COMPOSE" --runtime="$rt" main.xml -o "../$rt" > /dev/null 2> "../$rt.compose" ||
		{ cat "../$rt.compose"; fail "$rt: compose"; }
	make -s -C "../$rt" > "../$rt.make" 2>&1 || { cat "../$rt.make"; fail "$rt: build"; }
	PEPPHER_HOME="$work/home" PEPPHER_NCPU=2 PEPPHER_NOPENCL=0 "../$rt/app" > "../$rt.out" 2> "../$rt.err"
	rc=$?
	[ $rc -eq 1 ] || { cat "../$rt.out" "../$rt.err"; fail "$rt: exit status $rc, not 1 (two calls failed)"; }
	diff -u "$work/expected.out" "../$rt.out" || fail "$rt: results"
	grep -v "^\[starpu\]" "../$rt.err" | diff -u "$work/expected.err" - || fail "$rt: messages"
	make -q -C "../$rt" > /dev/null 2>&1 || fail "$rt: make has something to do after a build"
	touch -d '+2 seconds' app.h
	make -q -C "../$rt" > /dev/null 2>&1 && fail "$rt: app.h changed, and make would rebuild nothing"
	make -s -C "../$rt" > "../$rt.make" 2>&1 || { cat "../$rt.make"; fail "$rt: rebuild"; }
	touch app.h
	echo "PASS: $rt: container sizes checked, one container twice in a split call, a negative split size; a header rebuilds what includes it"
done
