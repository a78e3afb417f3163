#!/bin/sh
# Paths that URIs, make and the shell treat specially.  The component lies in
# a folder whose name holds a space, a quote, '#' and '$': compose finds every
# file from there (libxml2 URI-escapes a document's name) and the Makefile
# builds it.  A source name make cannot spell is an error, and a FIFO named
# *.xml does not hang compose, nor an empty implementation folder trouble it.
# A folder or a source compose cannot read is an error that says why (an
# unreadable implementation folder was skipped without a word, its variants
# missing from the program).
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

# an implementation folder that cannot be opened for want of descriptors
# (ulimit -n 4: the interface's folder holds the last one, fd 3)
emfile="$out/emfile"
cp -R "$top_srcdir/tests/compose/data/paths" "$emfile"
chmod -R u+w "$emfile"
(ulimit -n 4 && exec 3>&- && exec "$COMPOSE" -n --no-check-sources "$emfile/main.xml" \
	-o "$out/emfile-gen") > /dev/null 2> "$out/emfile.err"
[ $? -eq 1 ] || { cat "$out/emfile.err"; fail "ulimit -n 4: exit status"; }
grep -q "scale.xml:3: error: cannot read folder '.*/scale/scale_cpu': Too many open files" "$out/emfile.err" ||
	{ cat "$out/emfile.err"; fail "ulimit -n 4: diagnostic"; }

# a folder and a source that cannot be read: root reads them all the same,
# so these run as nobody, where there is one to run as
perm="$out/perm"
cp -R "$top_srcdir/tests/compose/data/paths" "$perm"
chmod -R a+rX,u+w "$perm"
nobody=$(id -u nobody 2> /dev/null) nogroup=$(id -g nobody 2> /dev/null)
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: unreadable folder and source: not root, cannot run as nobody"
elif [ -z "$nobody" ] || ! command -v setpriv > /dev/null; then
	echo "SKIP: unreadable folder and source: no user nobody or no setpriv"
elif ! setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups test -r "$perm/main.xml"; then
	echo "SKIP: unreadable folder and source: nobody cannot reach '$perm'"
else
	as_nobody() { setpriv --reuid="$nobody" --regid="$nogroup" --clear-groups "$@"; }
	chmod 000 "$perm/scale/scale_cpu"
	as_nobody "$COMPOSE" -n "$perm/main.xml" -o "$out/perm-gen" > /dev/null 2> "$out/perm.err"
	[ $? -eq 1 ] || { cat "$out/perm.err"; fail "unreadable implementation folder: exit status"; }
	grep -q "scale.xml:3: error: cannot read folder '.*/scale/scale_cpu': Permission denied" "$out/perm.err" ||
		{ cat "$out/perm.err"; fail "unreadable implementation folder: diagnostic"; }
	chmod 755 "$perm/scale/scale_cpu"
	chmod 000 "$perm/scale/scale_cpu/scale_cpu.c"
	as_nobody "$COMPOSE" -n "$perm/main.xml" -o "$out/perm-gen" > /dev/null 2> "$out/perm.err"
	[ $? -eq 1 ] || { cat "$out/perm.err"; fail "unreadable source: exit status"; }
	grep -q "scale_cpu.xml:5: error: cannot read source file '.*/scale_cpu.c': Permission denied" "$out/perm.err" ||
		{ cat "$out/perm.err"; fail "unreadable source: diagnostic"; }
	grep -q "not found" "$out/perm.err" && { cat "$out/perm.err"; fail "unreadable source: 'not found'"; }
	chmod 644 "$perm/scale/scale_cpu/scale_cpu.c"
fi
echo "PASS: paths"
