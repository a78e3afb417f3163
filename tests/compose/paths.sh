#!/bin/sh
# Paths that URIs, make and the shell treat specially.  The component lies in
# a folder whose name holds a space, a quote, '#' and '$': compose finds every
# file from there (libxml2 URI-escapes a document's name) and the Makefile
# builds it.  A source name make cannot spell is an error, and a FIFO named
# *.xml does not hang compose, nor an empty implementation folder trouble it.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
out="$top_builddir/tests/out/paths"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

src="$out/a b'c#d\$e"
cp -R "$top_srcdir/tests/compose/data/paths" "$src"
chmod -R u+w "$src"
# an empty folder among the implementations (it reached qsort(NULL, 0, ...))
mkdir "$src/scale/empty"
"$COMPOSE" "$src/main.xml" -o "$out/gen" || fail "compose from '$src'"
make -s -C "$out/gen" || fail "make from '$src'"
"$out/gen/app" || fail "the program"

# a '"' in a folder's name: the prototype checks include the source by
# its path, which C cannot escape in "..." (they said 'not found')
if "$COMPOSE" --version | grep -q "^C parser: libclang"; then
	quote="$out/q\"r"
	cp -R "$top_srcdir/tests/compose/data/paths" "$quote"
	chmod -R u+w "$quote"
	"$COMPOSE" "$quote/main.xml" -o "$out/quote-gen" || fail "compose from '$quote'"
fi

# a line break in a source file's name would start a new Makefile rule
nl="$out/nl"
cp -R "$top_srcdir/tests/compose/data/paths" "$nl"
chmod -R u+w "$nl"
mv "$nl/scale/scale_cpu/scale_cpu.c" "$nl/scale/scale_cpu/scale
all:;@touch pwned
x.c"
sed -i 's|name="scale_cpu.c"|name="scale\&#10;all:;@touch pwned\&#10;x.c"|' "$nl/scale/scale_cpu/scale_cpu.xml"
"$COMPOSE" --no-check-sources "$nl/main.xml" -o "$out/nl-gen" 2> "$out/nl.err" && fail "a line break in a source name composed"
grep -q "scale_cpu.xml:5: error: the path '.*scale\\\\nall:;@touch pwned\\\\nx.c' cannot be written in a Makefile" "$out/nl.err" ||
	{ cat "$out/nl.err"; fail "line break: diagnostic"; }
[ -e "$out/nl-gen" ] && fail "line break: the failed run left its output folder behind"

# FIFOs named *.xml: as the main descriptor and among the implementations
fifo="$out/fifo"
cp -R "$top_srcdir/tests/compose/data/paths" "$fifo"
chmod -R u+w "$fifo"
mkfifo "$fifo/pipe.xml" "$fifo/scale/scale_cpu/pipe.xml"
timeout 20 "$COMPOSE" "$fifo/pipe.xml" -o "$out/fifo-gen" 2> "$out/fifo.err"
[ $? -eq 1 ] || fail "a FIFO as the main descriptor"
grep -q "cannot read descriptor '.*/pipe.xml': not a regular file" "$out/fifo.err" ||
	{ cat "$out/fifo.err"; fail "FIFO: diagnostic"; }
timeout 20 "$COMPOSE" "$fifo/main.xml" -o "$out/fifo-gen" 2> "$out/fifo.err"
[ $? -eq 1 ] || fail "a FIFO among the implementations"
grep -q "scale.xml:3: error: cannot read descriptor '.*/scale_cpu/pipe.xml': not a regular file" "$out/fifo.err" ||
	{ cat "$out/fifo.err"; fail "FIFO in the implementations: diagnostic"; }
echo "PASS: paths"
