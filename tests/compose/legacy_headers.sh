#!/bin/sh
# Headers written the ways real libraries write them (tests/compose/data/
# headers: each of mix.h's declarations, needs_stdio.h and the umbrella
# mixlib.h stands for a real header whose generated tree did not compose:
# bzlib.h, png.h, jpeglib.h, lzma.h, z3.h, form.h, openssl's evp.h,
# glibc's; typed.h and forward.h as glibc's math.h and poll.h; c23.h as a
# C23 library's; odd_types.h
# as X11's, valgrind's and openssl's modes.h types): the tree
# composes as generated, builds with the library, and a
# program calling every function prints through PEPPHER what it prints
# calling them directly.  The real headers are in legacy_long.sh.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
data="$top_srcdir/tests/compose/data/headers"
work="$top_builddir/tests/out/legacy_headers"
fail() { echo "FAIL: $*"; exit 1; }
make_quiet() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }

"$COMPOSE" --version | grep -q "^C parser: libclang" || { echo "SKIP: compose built without libclang"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

"$COMPOSE" --generate-comp-files="$data/mix.h,$data/needs_stdio.h,$data/mixlib.h" -o mix \
	> /dev/null 2> gen.err || { cat gen.err; fail "skeleton"; }
# the reserved name is left out, the function pointer passed as itself, the
# function without a prototype left out of main.xml, the inline one said to
# be reached only where not inlined, each with a word; nothing else is said
sed "s|^$data/||" gen.err > gen.msg
printf '%s\n' "mix.h:25: warning: parameter 'f' of 'mix_apply' is a function pointer: passed by value, so only CPU variants can call it" \
	"mix.h:28: warning: '__mix_internal' is reserved for the C implementation (__x, _X): skipped" \
	"mix.h:29: warning: 'mix_old' is declared without a prototype (its parameters are unknown): main.xml leaves it out" \
	"mix.h:38: warning: 'mix_inc' is inline in the header: the calls the compiler inlines do not reach PEPPHER" |
	diff -u - gen.msg || fail "unexpected diagnostics"
[ ! -e mix/__mix_internal.xml ] || fail "__mix_internal has an interface"
ls mix/*.xml | sed 's|.*/||' | sort | tr '\n' ' ' > interfaces
[ "$(cat interfaces)" = "main.xml mix_Scale.xml mix_add.xml mix_apply.xml mix_half.xml mix_inc.xml mix_old.xml mix_pick.xml mix_pick_into.xml mix_scale.xml mix_stamp.xml mix_sub.xml mix_sum.xml mixlib_neg.xml mixlib_twice.xml nstd_put.xml " ] ||
	fail "interfaces: $(cat interfaces)"

# expect FILE LINE...: each line appears in mix/FILE (TREE/FILE with
# in_tree=TREE)
expect() {
	f=${in_tree:-mix}/$1
	shift
	for line in "$@"; do
		grep -qF -- "$line" "$f" || { grep 'peppher:parameter \|returnType' "$f"; fail "$f lacks: $line"; }
	done
}
expect mix_stamp.xml '<!-- '"'"'out'"'"' is declared as an array of 13 elements -->' \
	'name="out" type="char *" accessMode="readwrite" numElements="13"'
expect mix_sum.xml "the header's name '__n' is reserved for the C implementation (__x, _X): renamed" \
	'name="n" type="size_t" accessMode="read"' \
	'name="v" type="const int *" accessMode="read" numElements="n"' \
	'name="total" type="long *" accessMode="readwrite"'
expect mix_apply.xml 'name="f" type="int (*)(int)" accessMode="read"'
expect mix_pick.xml 'returnType="int (*)(int)"'
expect mix_pick_into.xml 'name="out" type="int (**)(int)" accessMode="read"'
head -n 8 mix/nstd_put/cpu/nstd_put_cpu.c | grep -q '^#include <stdio.h> /\* needs_stdio.h needs it first \*/$' ||
	fail "nstd_put's stub does not include <stdio.h> before needs_stdio.h"
expect mixlib_twice.xml 'include="'
# named as programs write them, wrapping the names they are declared with;
# a macro that writes the whole declaration leaves the name clang sees
expect mix_add.xml '<peppher:interface name="mix_add" include="' 'wrap="true" symbol="__mix_v2_add"'
expect mix_sub.xml 'wrap="true" symbol="__mix_v2_sub"'
expect mix_half.xml '<peppher:interface name="mix_half" include="'
grep -q 'symbol=' mix/mix_half.xml && fail "mix_half: a symbol"
grep -q '__real___mix_v2_add(a, b)' mix/mix_add/cpu/mix_add_cpu.c || fail "mix_add's CPU variant does not call __real___mix_v2_add"

# a C++ header is said to be one; a header that needs another first gets
# clang's error at its line; neither writes anything
for h in cplusplus needs_first; do
	"$COMPOSE" --generate-comp-files="$data/$h.h" -o "$h" > /dev/null 2> "$h.err" && fail "$h.h generated"
	[ ! -e "$h" ] || fail "$h.h wrote files"
done
grep -qx "$data/cplusplus.h: error: a C++ header (it parses as C++, not as C): utility mode reads C headers" \
	cplusplus.err || { cat cplusplus.err; fail "cplusplus.h: not said to be C++"; }
grep -qx "$data/needs_first.h:3: error: unknown type name 'j_ptr'" needs_first.err ||
	{ cat needs_first.err; fail "needs_first.h: not its own error"; }
# a struct first declared in a parameter list parses (clang warns), but is a
# type of its own in each declaration: the tree would not build
"$COMPOSE" --generate-comp-files="$data/needs_struct.h" -o needs_struct > /dev/null 2> needs_struct.err &&
	fail "needs_struct.h generated"
printf '%s\n' "$data/needs_struct.h:3: error: declaration of 'struct ns_buffer' will not be visible outside of this function: the header needs one that declares it first (include that one before it, or generate from a header that does)" \
	"compose: 1 error, nothing written" | diff -u - needs_struct.err || fail "needs_struct.h: not said what it needs"
[ ! -e needs_struct ] || fail "needs_struct.h wrote files"
# a header that is not there (gmp.h is in /usr/include/x86_64-linux-gnu on
# Debian), or a folder, is said to be so, not "cannot parse"
"$COMPOSE" --generate-comp-files="$data/missing.h" -o missing > /dev/null 2> missing.err &&
	fail "missing.h generated"
grep -qx "$data/missing.h: error: cannot read this header: No such file or directory" missing.err ||
	{ cat missing.err; fail "missing.h: not said to be missing"; }
"$COMPOSE" --generate-comp-files="$data" -o folder > /dev/null 2> folder.err && fail "a folder generated"
grep -qx "$data: error: cannot read this header: a directory" folder.err ||
	{ cat folder.err; fail "a folder: not said to be one"; }
# a device or a pipe, named or included, is refused before clang reads it
# for ever: /dev/zero named, included with its path, a FIFO included by a
# header beside it, and one found through -I; compose ends with the line of
# the include
"$COMPOSE" --generate-comp-files=/dev/zero -o zero > /dev/null 2> zero.err && fail "/dev/zero generated"
grep -qx "/dev/zero: error: cannot read this header: not a regular file" zero.err ||
	{ cat zero.err; fail "/dev/zero: not said to be no header"; }
mkdir -p special/inc
here=$(pwd -P)
mkfifo special/pipe.h special/inc/deep.h
printf '#include <stddef.h>\n#include "/dev/zero"\nint sz(int *x, int n);\n' > special/zero.h
printf '/* beside */\n#include "part.h"\nint sp(int *x, int n);\n' > special/top.h
printf '#include <stdio.h>\n\n#include "pipe.h"\n' > special/part.h
printf '#include <deep.h>\nint sd(int *x, int n);\n' > special/deep_top.h
for h in zero top deep_top; do
	case $h in
	zero) want="$here/special/zero.h:2: error: its #include names /dev/zero" flags= ;;
	top) want="$here/special/part.h:3: error: its #include names $here/special/pipe.h" flags= ;;
	deep_top) want="$here/special/deep_top.h:1: error: its #include names special/inc/deep.h" flags="-I special/inc" ;;
	esac
	# shellcheck disable=SC2086 # flags: words
	timeout 60 "$COMPOSE" $flags --generate-comp-files="special/$h.h" -o "special/$h" > /dev/null 2> "special/$h.err"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "special/$h.err"; fail "$h.h: exit $rc"; }
	printf '%s\n' "$want, which is not a regular file (a device or a pipe: it would be read for ever)" \
		"compose: 1 error, nothing written" | diff -u - "special/$h.err" || fail "$h.h: not said which include"
	[ ! -e "special/$h" ] || fail "$h.h wrote files"
done
# a header read with -D (pcre2.h's PCRE2_CODE_UNIT_WIDTH): the sources'
# compiler flags in the descriptors have it, so the tree composes and builds
# with no option
"$COMPOSE" -D NEEDS_WIDTH=16 --empty-stubs --generate-comp-files="$data/needs_define.h" -o nd \
	> /dev/null 2> nd.err || { cat nd.err; fail "needs_define.h with -D"; }
printf '%s\n' "compose: note: the headers were read with -DNEEDS_WIDTH=16: the sources' compiler flags have them, for compose and make" |
	diff -u - nd.err || fail "needs_define.h: not told where -D went"
for xml in nd/main.xml nd/nd_width/cpu/nd_width_cpu.xml nd/nd_height/cuda/nd_height_cuda.xml; do
	grep -qF '<peppher:flags>-O2 -DNEEDS_WIDTH=16</peppher:flags>' "$xml" ||
		fail "needs_define.h: $xml does not compile with -D"
done
grep -qF '<peppher:flags>-O2 -fopenmp -DNEEDS_WIDTH=16</peppher:flags>' nd/nd_width/openmp/nd_width_openmp.xml ||
	fail "needs_define.h: the OpenMP variant does not compile with -D"
"$COMPOSE" nd/main.xml -o nd-gen --platforms=CPU > /dev/null 2> nd-compose.err ||
	fail "needs_define.h: compose"
[ -s nd-compose.err ] && { cat nd-compose.err; fail "needs_define.h: composing warns"; }
grep -q '^nd_width_entry.o:' nd-gen/Makefile && grep -q '^	$(CC) -DNEEDS_WIDTH=16 $(CPPFLAGS) .* nd_width_entry.c' nd-gen/Makefile ||
	fail "needs_define.h: the entry wrapper does not compile with main's -D"
make_quiet -C nd-gen > nd-build.log 2>&1 ||
	{ tail nd-build.log; fail "needs_define.h: the tree does not build"; }
# the library goes into main.xml's link step (-L made absolute); with a main
# descriptor, whose link step has flags of its own, -l is an error
mkdir -p ndlib
"$COMPOSE" -D NEEDS_WIDTH=16 -L ndlib -lnd --empty-stubs --generate-comp-files="$data/needs_define.h" -o ndl \
	> /dev/null 2> ndl.err || { cat ndl.err; fail "needs_define.h with -L and -l"; }
grep -qx "compose: note: the program is linked with -L$(pwd -P)/ndlib -lnd: main.xml's link step has them, for make" ndl.err ||
	{ cat ndl.err; fail "needs_define.h: not told where -L and -l went"; }
grep -A1 '<peppher:name>gcc</peppher:name>' ndl/main.xml | grep -qxF "            <peppher:flags>-L$(pwd -P)/ndlib -lnd</peppher:flags>" ||
	fail "needs_define.h: main.xml's link step does not have -L and -l"
"$COMPOSE" -lnd nd/main.xml -o ndl-gen > /dev/null 2> ndl.err && fail "-l with a main descriptor composed"
printf '%s\n' "compose: error: -L and -l name the library of the headers --generate-comp-files reads: a main descriptor's link step has its own flags (or make LDLIBS=...)" \
	"compose: 1 error, nothing written" | diff -u - ndl.err || fail "-l with a main descriptor: not said why it is refused"
# a tree whose descriptors lack it: the #error makes each prototype check
# impossible, said once with how many more (the sources would not compile)
cp -R nd nd-bare
sed -i 's/ -DNEEDS_WIDTH=16//' nd-bare/main.xml nd-bare/*/*/*.xml
"$COMPOSE" nd-bare/main.xml -o nd-bare-gen --platforms=CPU > /dev/null 2> nd-bare.err ||
	fail "needs_define.h without -D: compose"
real_data=$(cd "$data" && pwd -P)
printf '%s\n' "nd-bare/nd_width/cpu/nd_width_cpu.xml:6: warning: cannot check the prototype of 'nd_width_cpu': $real_data/needs_define.h:4: error: NEEDS_WIDTH must be defined before including needs_define.h" \
	"compose: note: the prototypes of 1 more implementation cannot be checked for the same reason ($real_data/needs_define.h:4: error: NEEDS_WIDTH must be defined before including needs_define.h)" |
	diff -u - nd-bare.err || fail "needs_define.h without -D: not said that the header stops the sources"
make_quiet -C nd-bare-gen > nd-build.log 2>&1 && fail "needs_define.h: built without -D"
# composed without the -I its header needs, clang stops with "too many
# errors" and reports none after: the prototype checks say they cannot
# check, with the first error, instead of comparing the types clang read as
# int (which were errors: "'const int *p', but interface ... 'const nd_byte *p'")
"$COMPOSE" -I "$data/ndpart" --generate-comp-files="$data/needs_include.h" -o ni > /dev/null 2>&1 ||
	fail "needs_include.h with -I"
"$COMPOSE" ni/main.xml -o ni-gen --platforms=CPU > /dev/null 2> ni-compose.err ||
	fail "needs_include.h: compose"
[ -s ni-compose.err ] && { head -3 ni-compose.err; fail "needs_include.h: composing warns"; }
sed -i "s| -I$real_data/ndpart||" ni/main.xml ni/*/*/*.xml
"$COMPOSE" ni/main.xml -o ni-gen --platforms=CPU > /dev/null 2> ni-compose.err ||
	{ head -3 ni-compose.err; fail "needs_include.h: composing without -I fails"; }
grep -q "^ni/nd_get1/cpu/nd_get1_cpu.xml:6: warning: cannot check the prototype of 'nd_get1_cpu': .*needs_include.h:6: error: 'nd_part.h' file not found$" ni-compose.err ||
	{ head -3 ni-compose.err; fail "needs_include.h: not said why the prototype cannot be checked"; }
grep -q "^compose: note: the prototypes of 23 more implementations cannot be checked for the same reason (.*needs_include.h:6: error: 'nd_part.h' file not found)$" ni-compose.err &&
	[ "$(wc -l < ni-compose.err)" -eq 2 ] ||
	{ cat ni-compose.err; fail "needs_include.h: not one warning and a note for 23 more"; }
"$COMPOSE" -I "$data/ndpart" ni/main.xml -o ni-gen --platforms=CPU > /dev/null 2> ni-compose.err ||
	fail "needs_include.h: compose with -I"
[ -s ni-compose.err ] && { head -3 ni-compose.err; fail "needs_include.h: composing with -I warns"; }

# compute_as_called TREE LIBRARY CALLS FUNCTION...: TREE's skeleton, with
# CALLS as its program, composes without a word and builds without a
# warning against LIBRARY; the program prints what CALLS built directly
# prints, and each FUNCTION ran as a component
compute_as_called() {
	tree=$1 library=$2 calls=$3
	shift 3
	cp "$data/$calls" "$tree/main.c"
	"$COMPOSE" -I "$data" "$tree/main.xml" -o "$tree-gen" --platforms=CPU > /dev/null 2> "$tree-compose.err" ||
		{ cat "$tree-compose.err"; fail "$tree: compose"; }
	[ -s "$tree-compose.err" ] && { cat "$tree-compose.err"; fail "$tree: composing warns"; }
	gcc -O2 -c -I"$data" -o "$tree.o" "$data/$library" && ar rcs "lib$tree.a" "$tree.o" ||
		fail "$tree: the library"
	make_quiet -C "$tree-gen" -j2 CFLAGS=-Werror CPPFLAGS="-I$data" LDLIBS="-L$work -l$tree" \
		> "$tree-build.log" 2>&1 || { tail "$tree-build.log"; fail "$tree: build (warnings are errors)"; }
	PEPPHER_NCPU=2 PEPPHER_TRACE="$work/$tree.trace" "$tree-gen"/*_app > "$tree-peppher.out" ||
		fail "$tree: the composed program failed"
	gcc -O2 -DDIRECT -I"$data" -o "$tree-direct" "$data/$calls" "lib$tree.a" || fail "$tree: direct build"
	"./$tree-direct" | diff -u - "$tree-peppher.out" || fail "$tree: results differ from direct calls"
	for f; do
		grep -q "\"$f/${f}_cpu\"" "$tree.trace" || fail "$f did not run as a component"
	done
}

# a header whose functions are declared in its private parts (typed.h, as
# glibc's math.h): one interface per function, none and no word for the
# reserved aliases the same macro declares; they compute as called directly,
# one declared with an asm label too (as glibc's strerror_r)
"$COMPOSE" -I "$data" --generate-comp-files="$data/typed.h" -o typed > /dev/null 2> typed.err ||
	{ cat typed.err; fail "typed.h"; }
grep -v "^compose: note: the headers were read with -I" typed.err && fail "typed.h: more than the -I note"
[ "$(ls typed/*.xml | sed 's|.*/||' | sort | tr '\n' ' ')" = "half.xml halff.xml main.xml twice.xml twicef.xml typed_code.xml typed_count.xml " ] ||
	fail "typed.h: interfaces $(ls typed)"
# a header's parts beside it (sib.h, as curl.h's "easy.h" and "multi.h",
# tcl.h's "tclDecls.h"): one that uses its types without including it, one
# that includes it back; not one that parses alone (as lapacke.h's
# "lapack.h", a header of its own).  curl_easy_perform and Tcl's 633
# functions were left out
"$COMPOSE" -I "$data" --generate-comp-files="$data/sib.h" -o sib > /dev/null 2> sib.err ||
	{ cat sib.err; fail "sib.h"; }
ls sib/*.xml | sed 's|.*/||' | sort | tr '\n' ' ' > interfaces
[ "$(cat interfaces)" = "main.xml sib_add.xml sib_twice.xml sib_version.xml " ] ||
	fail "sib.h: interfaces: $(cat interfaces)"
compute_as_called sib sib.c sib_calls.c sib_version sib_add sib_twice
# an umbrella header keeps all its headers, the one that parses alone too
# (with parts looked for first, cholmod.h lost SuiteSparse_config.h's)
"$COMPOSE" -I "$data" --generate-comp-files="$data/sibs.h" -o sibs > /dev/null 2> sibs.err ||
	{ cat sibs.err; fail "sibs.h"; }
ls sibs/*.xml | sed 's|.*/||' | sort | tr '\n' ' ' > interfaces
[ "$(cat interfaces)" = "main.xml sibs_core.xml sibs_util.xml " ] || fail "sibs.h: interfaces: $(cat interfaces)"
# the linker's name of a function declared with an asm label is wrapped
grep -q 'wrap="true" symbol="typed_code_v2"' typed/typed_code.xml || fail "typed_code: no symbol from its asm label"
compute_as_called typed typed.c typed_calls.c half halff twice twicef typed_count typed_code
# a C23 header ([[nodiscard]]): clang reads it as C2x only, and it was said
# to be a C++ header; read as gnu2x, said so, which the C sources' flags
# have (not nvcc's); or read with the standard -std names
"$COMPOSE" -I "$data" --generate-comp-files="$data/c23.h" -o c23 > /dev/null 2> c23.err ||
	{ cat c23.err; fail "c23.h"; }
grep -v "^compose: note: the headers were read with -I" c23.err | sed "s|^$data/||" > c23.msg
printf '%s\n' "c23.h: note: parses as C23 (-std=gnu2x), not as C11: read so, and the C sources' compiler flags have -std=gnu2x, for compose and make" |
	diff -u - c23.msg || fail "c23.h: not said how it was read"
in_tree=c23
expect c23_sum/cpu/c23_sum_cpu.xml "<peppher:flags>-O2 -std=gnu2x -I$(cd "$data" && pwd -P)</peppher:flags>"
expect c23_sum/openmp/c23_sum_openmp.xml '<peppher:flags>-O2 -fopenmp -std=gnu2x -I'
expect c23_sum/opencl/c23_sum_opencl.xml '<peppher:flags>-O2 -std=gnu2x -I'
expect main.xml '<peppher:flags>-O2 -std=gnu2x -I'
in_tree=
grep -q -- -std c23/c23_sum/cuda/c23_sum_cuda.xml && fail "c23.h: nvcc is given a C standard"
compute_as_called c23 c23.c c23_calls.c c23_sum
"$COMPOSE" -std=c2x -I "$data" --generate-comp-files="$data/c23.h" -o c23-std > /dev/null 2> c23-std.err ||
	{ cat c23-std.err; fail "c23.h with -std=c2x"; }
grep -qx "compose: note: the headers were read with -std=c2x: the C sources' compiler flags have it, for compose and make" c23-std.err &&
	[ "$(wc -l < c23-std.err)" -eq 2 ] || { cat c23-std.err; fail "c23.h with -std=c2x: not said so"; }
in_tree=c23-std
expect c23_total/cpu/c23_total_cpu.xml '<peppher:flags>-O2 -std=c2x -I'
in_tree=
# -std of C only, and for utility mode only (each source has its own)
"$COMPOSE" -std=c++17 --generate-comp-files="$data/c23.h" -o c23-cxx > /dev/null 2> std.err && fail "-std=c++17 taken"
printf '%s\n' "compose: error: -std=c++17: utility mode reads C headers: give a C standard (c11, gnu17, c2x...)" \
	"compose: 1 error, nothing written" | diff -u - std.err || fail "-std=c++17: not said why it is refused"
"$COMPOSE" -std=c2x c23/main.xml -o c23-gen2 > /dev/null 2> std.err && fail "-std with a main descriptor composed"
printf '%s\n' "compose: error: -std names the C standard of the headers --generate-comp-files reads: the prototype checks parse each source with the -std of its descriptor's compiler flags" \
	"compose: 1 error, nothing written" | diff -u - std.err || fail "-std with a main descriptor: not said why it is refused"
# types real headers write that descriptors could not take (odd_types.h):
# a pointer to an unnamed enum, noreturn function pointers, pointers to
# arrays, in a callback too; rows of an array ("double a[n][m]") are a
# row-major matrix, deeper arrays passed as themselves; a structure with
# pointers in a union or an array is a handle; typeof, _Atomic
"$COMPOSE" --generate-comp-files="$data/odd_types.h" -o odd > /dev/null 2> odd.err ||
	{ cat odd.err; fail "odd_types.h"; }
sed "s|^$data/||" odd.err > odd.msg
grep -qx "odd_types.h:19: warning: parameter 'b' of 'odd_blocks' points to arrays: passed as itself, so only CPU variants can use it; describe its data by hand" odd.msg ||
	{ cat odd.msg; fail "odd_types.h: no word on the pointer to arrays"; }
# typeof is the type it names; _Atomic data leaves its function out of
# main.xml, said so (both spelled with parentheses by clang, they were said
# to point to arrays, and written into descriptors compose refused)
grep -qx "odd_types.h:51: warning: 'odd_atomic_add': its parameter 'c' ('_Atomic(int) \*') is _Atomic, which a task's data cannot be: main.xml leaves it out" odd.msg ||
	{ cat odd.msg; fail "odd_types.h: no word on the _Atomic parameter"; }
grep -q "odd_typeof_sum\|'c' of 'odd_atomic_add'" odd.msg && { cat odd.msg; fail "odd_types.h: a false word on typeof or _Atomic"; }
# a callback taking a va_list is a function pointer (its function was left
# out, "takes a va_list"); a va_list itself is left out
grep -qx "odd_types.h:65: warning: parameter 'r' of 'odd_set_report' is a function pointer: passed by value, so only CPU variants can call it" odd.msg ||
	{ cat odd.msg; fail "odd_types.h: no word on the callback taking a va_list"; }
grep -qx "odd_types.h:67: warning: 'odd_vcount' takes a va_list, which a task cannot carry: main.xml leaves it out" odd.msg ||
	{ cat odd.msg; fail "odd_types.h: no word on the va_list"; }
grep -q "'odd_set_report' takes a va_list" odd.msg && { cat odd.msg; fail "odd_types.h: a callback taking a va_list said to be one"; }
grep -q '^ *<peppher:requiredInterface name="odd_set_report" xmlFile="odd_set_report.xml"/>$' odd/main.xml ||
	fail "odd_types.h: odd_set_report is left out of main.xml"
grep -q '^ *<peppher:requiredInterface name="odd_atomic_add" xmlFile="odd_atomic_add.xml"/> -->$' odd/main.xml ||
	fail "odd_types.h: odd_atomic_add is not left out of main.xml"
in_tree=odd
expect odd_bind.xml 'name="b" type="odd_binding *" accessMode="readwrite"'
expect odd_rows.xml 'name="m" type="double *" accessMode="readwrite" numElements="n,3"'
expect odd_scale.xml 'name="a" type="double *" accessMode="readwrite" numElements="n,m"'
expect odd_sum_blocks.xml 'name="in" type="const odd_block *" accessMode="read" numElements="n"'
expect odd_visit.xml 'name="f" type="odd_visit_fn *" accessMode="read" byValue="true"'
expect odd_event_length.xml 'name="e" type="odd_event *" accessMode="read" byValue="true"'
expect odd_names_length.xml 'name="n" type="const odd_names *" accessMode="read" byValue="true"'
expect odd_blocks.xml 'name="b" type="const double (*)[2][2]" accessMode="read"/>'
# a count right after its pointer is its count, rows and columns elsewhere u's
expect odd_push.xml 'name="p" type="double *" accessMode="readwrite" numElements="n"'
expect odd_push.xml 'name="u" type="const double *" accessMode="read" numElements="rows,cols"'
expect odd_typeof_sum.xml 'returnType="int"' 'name="x" type="const float *" accessMode="read" numElements="n"'
# a const array typedef is an array of const elements, read; rows of one
# too (were "unsigned char *" readwrite, "double *" read)
expect odd_id_cmp.xml 'name="a" type="const unsigned char *" accessMode="read" numElements="4"' \
	'name="b" type="const unsigned char *" accessMode="read" numElements="4"'
expect odd_id_copy.xml 'name="dst" type="unsigned char *" accessMode="readwrite" numElements="4"' \
	'name="src" type="const unsigned char *" accessMode="read" numElements="4"'
expect odd_first.xml 'name="r" type="const double *" accessMode="read" numElements="n,3"'
expect odd_trace.xml "'m' is declared as 2 rows of 3 elements: a row-major matrix" \
	'name="m" type="const double *" accessMode="read" numElements="2,3"'
# GSL's strided vectors (a pointer, then its stride), as BLAS's
expect odd_wmean.xml 'name="w" type="const double *" accessMode="read" numElements="1 + (n - 1) * abs(wstride)"' \
	'name="data" type="const double *" accessMode="read" numElements="1 + (n - 1) * abs(stride)"'
expect odd_swap.xml 'name="data1" type="double *" accessMode="readwrite" numElements="1 + (n - 1) * abs(stride1)"' \
	'name="data2" type="double *" accessMode="readwrite" numElements="1 + (n - 1) * abs(stride2)"'
expect odd_fill.xml 'name="pixels" type="unsigned char *" accessMode="readwrite" numElements="height,width"'
# a size named after one pointer, or right after a buffer of bytes, is not
# guessed for another pointer
expect odd_seal.xml 'name="m" type="const unsigned char *" accessMode="read" numElements="mlen"' \
	'name="n" type="const unsigned char *" accessMode="read"/>' \
	'name="k" type="const unsigned char *" accessMode="read"/>'
expect odd_dump.xml 'name="r" type="const odd_record *" accessMode="read"/>' \
	'name="buffer" type="char *" accessMode="readwrite" numElements="size"'
# what a function pointer is called with is passed as itself; qsort's base
# holds nmemb elements of size bytes
expect odd_apply.xml "guess: 'user' is what the function 'fn' is called with" \
	'name="user" type="void *" accessMode="read" byValue="true"'
# a pointer typedef qualified restrict: the qualifier of the parameter
# itself, which a prototype ignores, left out (was "restrict odd_ctx_t")
expect odd_ctx_depth.xml 'name="ctx" type="odd_ctx_t" accessMode="read"/>'
expect odd_ctx_free.xml 'name="ctx" type="odd_ctx_t" accessMode="read"/>'
expect odd_reverse.xml 'name="base" type="void *" accessMode="readwrite" numElements="nmemb * size" elemType="unsigned char"'
expect odd_find.xml 'name="key" type="const void *" accessMode="read" numElements="size" elemType="unsigned char"' \
	'name="base" type="const void *" accessMode="read" numElements="nmemb * size" elemType="unsigned char"'
in_tree=
compute_as_called odd odd_types.c odd_types_calls.c odd_rows odd_scale odd_blocks odd_sum_blocks odd_each odd_bind odd_set \
	odd_exit_with odd_visit odd_event_length odd_names_length odd_push odd_typeof_sum odd_id_cmp odd_id_copy odd_first \
	odd_set_report odd_say odd_wmean odd_swap odd_trace odd_fill odd_seal odd_dump odd_apply odd_reverse odd_find \
	odd_ctx_new odd_ctx_depth odd_ctx_free
# described as data, a function pointer gets a word, not "declare it const"
sed -i 's|type="odd_visit_fn \*" accessMode="read" byValue="true"|type="odd_visit_fn *" accessMode="read"|' odd/odd_visit.xml
"$COMPOSE" -I "$data" odd/main.xml -o odd-gen2 --platforms=CPU > /dev/null 2> odd-fn.err || fail "odd: compose without byValue"
grep -qx "odd/odd_visit/cpu/odd_visit_cpu.c:[0-9]*: warning: parameter 'f' of 'odd_visit_cpu' is a function pointer: give it byValue=\"true\" (as data, the runtime would register and move the function's code)" odd-fn.err ||
	{ cat odd-fn.err; fail "odd_visit: no word on a function pointer described as data"; }
# names generated code would take otherwise (clash.h): a parameter named
# like the codelet or a macro of peppher.h is renamed, a function whose CPU
# variant another function names is left out, a const result is stored in
# a variable, a function NAME_args beside NAME stays
"$COMPOSE" -I "$data" --generate-comp-files="$data/clash.h" -o clash > /dev/null 2> clash.err ||
	{ cat clash.err; fail "clash.h"; }
grep -v "^compose: note: the headers were read with -I" clash.err | sed "s|^$data/||" > clash.msg
printf '%s\n' "clash.h:12: warning: compose would make 'cl_inc_cpu' of 'cl_inc' (its interface or a variant), and the headers declare a function 'cl_inc_cpu': main.xml leaves 'cl_inc' out" |
	diff -u - clash.msg || fail "clash.h: unexpected diagnostics"
in_tree=clash
expect cl_sum.xml "the header's name 'cl_sum_codelet' is the codelet its interface's entry function passes to the runtime: renamed" \
	'name="arg3" type="int" accessMode="read"'
expect cl_neg.xml "the header's name 'PEPPHER_INITIALIZE' is reserved for the macros of PEPPHER-C's headers (PEPPHER_x): renamed"
in_tree=
compute_as_called clash clash.c clash_calls.c cl_sum cl_neg cl_twice cl_inc_cpu cl_t cl_t_args
# a header that only includes another (glibc's poll.h, memory.h) says which
"$COMPOSE" -I "$data" --generate-comp-files="$data/forward.h" -o forward > /dev/null 2> forward.err &&
	fail "forward.h generated"
printf '%s\n' "$data/forward.h: warning: declares no function" \
	"$data/forward.h: note: it includes $(cd "$data" && pwd -P)/typed.h, which declares 6 functions: generate from that header" \
	"compose: error: no function declared in the headers: nothing to generate" \
	"compose: 1 error, nothing written" | diff -u - forward.err || fail "forward.h: not told where the functions are"
# ... also when another header of its own included that one first (gsl_vector.h
# includes gsl_vector_double.h, which gsl_vector_complex_double.h included)
"$COMPOSE" -I "$data" --generate-comp-files="$data/forward_again.h" -o forward > /dev/null 2> forward.err &&
	fail "forward_again.h generated"
printf '%s\n' "$data/forward_again.h: warning: declares no function" \
	"$data/forward_again.h: note: it includes $(cd "$data" && pwd -P)/typed.h, which declares 6 functions: generate from that header" \
	"compose: error: no function declared in the headers: nothing to generate" \
	"compose: 1 error, nothing written" | diff -u - forward.err || fail "forward_again.h: not told where the functions are"

cp "$data/mix_calls.c" mix/main.c
"$COMPOSE" mix/main.xml -o gen --platforms=CPU > /dev/null 2> compose.err ||
	{ cat compose.err; fail "compose"; }
[ -s compose.err ] && { cat compose.err; fail "composing warns"; }
# the include guards keep the case of the names (upper-cased, two were one)
grep -q '^#ifndef mix_Scale_BACKENDS_H$' gen/mix_Scale_backends.h &&
	grep -q '^#ifndef mix_scale_BACKENDS_H$' gen/mix_scale_backends.h || fail "include guards"
gcc -O2 -c -I"$data" -o mix.o "$data/mix.c" && ar rcs libmix.a mix.o || fail "the library"
make_quiet -C gen -j2 CPPFLAGS="-I$data" LDLIBS="-L$work -lmix" > build.log 2>&1 ||
	{ tail build.log; fail "build"; }
PEPPHER_NCPU=2 PEPPHER_TRACE="$work/mix.trace" ./gen/mix_app > peppher.out || fail "the composed program failed"
gcc -O2 -DDIRECT -I"$data" -o direct "$data/mix_calls.c" libmix.a || fail "direct build"
./direct > direct.out || fail "the direct program failed"
diff -u direct.out peppher.out || fail "results differ from direct calls"
for f in mix_Scale mix_scale mix_stamp mix_sum mix_apply mix_pick mix_pick_into nstd_put mixlib_twice mixlib_neg \
	mix_add mix_sub mix_half; do
	grep -q "\"$f/${f}_cpu\"" mix.trace || fail "$f did not run as a component"
done
# over StarPU too: a NULL pointer, and a call inside a variant (mixlib_neg
# in mix_apply's), where StarPU's workers must not wait
if pkg-config --exists peppher-starpu; then
	"$COMPOSE" mix/main.xml -o gen-starpu --platforms=CPU --runtime=starpu > /dev/null 2> compose-starpu.err ||
		{ cat compose-starpu.err; fail "compose --runtime=starpu"; }
	make_quiet -C gen-starpu -j2 CPPFLAGS="-I$data" LDLIBS="-L$work -lmix" > build-starpu.log 2>&1 ||
		{ tail build-starpu.log; fail "build for StarPU"; }
	STARPU_SILENT=1 STARPU_HOME="$work/starpu-home" PEPPHER_NCPU=2 ./gen-starpu/mix_app > starpu.out ||
		fail "the program composed for StarPU failed"
	diff -u direct.out starpu.out || fail "results over StarPU differ from direct calls"
fi
# a function the header declares but the library lacks (OpenBLAS's cblas.h
# declares bf16 routines libopenblas does not have) is left out of main.xml,
# said: the tree links as generated; a static library cannot be looked into
mkdir -p partlib
printf 'int part_have(int x);\nint part_lacks(int x);\n' > partlib/part.h
printf 'int part_have(int x) { return x + 1; }\n' > partlib/part.c
gcc -shared -fPIC -o partlib/libpart.so partlib/part.c || fail "libpart.so"
"$COMPOSE" -L partlib -lpart --generate-comp-files=partlib/part.h -o part > /dev/null 2> part.err ||
	{ cat part.err; fail "part.h"; }
grep -qx "partlib/part.h:2: warning: 'part_lacks' is not in -lpart: main.xml leaves it out (add the library that has it)" part.err ||
	{ cat part.err; fail "part.h: the function the library lacks is not said"; }
grep -q "<!-- FIXME: 'part_lacks' is not in -lpart" part/main.xml || fail "part.h: part_lacks in main.xml"
grep -q '^ *<peppher:requiredInterface name="part_have" xmlFile="part_have.xml"/>$' part/main.xml ||
	fail "part.h: part_have left out"
"$COMPOSE" part/main.xml -o part-gen --platforms=CPU > /dev/null 2>&1 || fail "part.h: compose"
make_quiet -C part-gen > part-build.log 2>&1 || { tail part-build.log; fail "part.h: the tree does not link"; }
rm partlib/libpart.so
gcc -c -o partlib/part.o partlib/part.c && ar rcs partlib/libpart.a partlib/part.o || fail "libpart.a"
"$COMPOSE" -L partlib -lpart --generate-comp-files=partlib/part.h -o part-static > /dev/null 2> part-static.err ||
	fail "part.h, static"
grep -q "is not in" part-static.err && fail "part.h: a static library's functions taken for missing"
# the library is a prerequisite of the program, found where ld finds it:
# rebuilt, it is linked again (a static library's code is in the program,
# which printed 3 and prints 12); gone, it is ld's error, not make's
mkdir -p relinklib
printf 'int relink_value(int x);\n' > relinklib/relink.h
printf 'int relink_value(int x) { return x + 1; }\n' > relinklib/relink.c
gcc -c -o relinklib/relink.o relinklib/relink.c && ar rcs relinklib/librelink.a relinklib/relink.o ||
	fail "librelink.a"
"$COMPOSE" -L "$work/relinklib" -lrelink --generate-comp-files=relinklib/relink.h -o relink > /dev/null 2>&1 ||
	fail "relink.h"
printf '#include <stdio.h>\n#include "peppher.h"\nint main(void)\n{\n\tPEPPHER_INITIALIZE();\n\tprintf("%%d\\n", relink_value(2));\n\tPEPPHER_SHUTDOWN();\n\treturn 0;\n}\n' > relink/main.c
"$COMPOSE" relink/main.xml -o relink-gen --platforms=CPU > /dev/null 2>&1 || fail "relink.h: compose"
make_quiet -C relink-gen > relink-build.log 2>&1 || { tail relink-build.log; fail "relink.h: build"; }
[ "$(./relink-gen/relink_app)" = 3 ] || fail "relink.h: the program does not print 3"
make_quiet -q -C relink-gen relink_app || fail "relink.h: the program built is out of date"
sleep 1
printf 'int relink_value(int x) { return x + 10; }\n' > relinklib/relink.c
gcc -c -o relinklib/relink.o relinklib/relink.c && ar rcs relinklib/librelink.a relinklib/relink.o ||
	fail "librelink.a again"
make_quiet -q -C relink-gen relink_app && fail "relink.h: a library rebuilt does not relink the program"
make_quiet -C relink-gen > relink-build.log 2>&1 || { tail relink-build.log; fail "relink.h: build again"; }
[ "$(./relink-gen/relink_app)" = 12 ] || fail "relink.h: relinked, the program does not print 12"
rm relinklib/librelink.a
make_quiet -q -C relink-gen relink_app || fail "relink.h: a library gone is a rule make lacks"
# a GNU ld script (Debian's libm.so, libncurses.so: "INPUT(libncurses.so.6
# -ltinfo)") is looked into through the files it names, beside it or by
# -l; a function of the C library links whatever -l says (glibc's isinf,
# which math.h declares, is in libc.so.6): neither is said to be missing
mkdir -p scriptlib
printf 'int part_have(int x);\nint part_dep(int x);\nint part_lacks(int x);\nint atoi(const char *s);\n' > scriptlib/part.h
printf 'int part_have(int x) { return x + 1; }\n' > scriptlib/part.c
printf 'int part_dep(int x) { return x + 2; }\n' > scriptlib/dep.c
gcc -shared -fPIC -o scriptlib/libpart_impl.so.1 scriptlib/part.c &&
	gcc -shared -fPIC -o scriptlib/libpartdep.so scriptlib/dep.c || fail "the script's libraries"
printf '/* GNU ld script\n */\nINPUT ( libpart_impl.so.1 AS_NEEDED ( -lpartdep ) )\n' > scriptlib/libpart.so
"$COMPOSE" -L scriptlib -lpart --generate-comp-files=scriptlib/part.h -o script > /dev/null 2> script.err ||
	{ cat script.err; fail "part.h through a linker script"; }
grep "is not in" script.err | sed 's/ main.xml.*//' > script.msg
echo "scriptlib/part.h:3: warning: 'part_lacks' is not in -lpart:" | diff -u - script.msg ||
	fail "part.h through a linker script: the functions said to be missing"
"$COMPOSE" script/main.xml -o script-gen --platforms=CPU > /dev/null 2>&1 || fail "part.h through a linker script: compose"
make_quiet -C script-gen > script-build.log 2>&1 || { tail script-build.log; fail "part.h through a linker script: the tree does not link"; }
# a function with more pointers than a call takes (17; a FILE * by value
# not counted) is left out, the tree composes with the others
mkdir -p many
{
	printf 'void many(FILE *log'
	for i in $(seq 0 16); do printf ', float *a%d' "$i"; done
	printf ', int n);\nvoid sixteen(FILE *log'
	for i in $(seq 0 15); do printf ', float *a%d' "$i"; done
	printf ', int n);\n'
} > many/many.h
sed -i '1i #include <stdio.h>' many/many.h
"$COMPOSE" --generate-comp-files=many/many.h -o many-tree > /dev/null 2> many.err ||
	{ cat many.err; fail "many.h"; }
grep -qx "many/many.h:2: warning: 'many' has 17 pointer parameters that a call registers, and a call takes at most 16: the tree would not compose: main.xml leaves 'many' out" many.err ||
	{ cat many.err; fail "many.h: the function with 17 pointers is not said"; }
grep -q "sixteen" many.err && { cat many.err; fail "many.h: 16 pointers said"; }
"$COMPOSE" many-tree/main.xml -o many-gen --platforms=CPU > /dev/null 2>&1 || fail "many.h: compose"
# a library that opens OpenMP regions (it loads libgomp) is called from a
# fork-join variant: on a worker bound to one core, the region's threads
# inherited that core (both on core 1); on a team they are pinned a core
# each.  A library without OpenMP keeps CPU variants.
mkdir -p omplib
printf 'int omp_cores(void);\n' > omplib/omp_cores.h
cat > omplib/omp_cores.c <<'END'
#define _GNU_SOURCE
#include <sched.h>
#include "omp_cores.h"
/* the cores the threads of a region may run on, together */
int omp_cores(void)
{
	cpu_set_t all;

	CPU_ZERO(&all);
#pragma omp parallel
	{
		cpu_set_t set;

		sched_getaffinity(0, sizeof(set), &set);
#pragma omp critical
		CPU_OR(&all, &all, &set);
	}
	return CPU_COUNT(&all);
}
END
gcc -O2 -shared -fPIC -fopenmp -o omplib/libompcores.so omplib/omp_cores.c &&
	gcc -O2 -shared -fPIC -Wno-unknown-pragmas -o omplib/libplaincores.so omplib/omp_cores.c ||
	fail "libompcores.so"
"$COMPOSE" -L "$work/omplib" -lompcores --generate-comp-files=omplib/omp_cores.h -o ompcores > /dev/null 2>&1 ||
	fail "omp_cores.h"
grep -q '<peppher:targetPlatform name="OPENMP"/>' ompcores/omp_cores/cpu/omp_cores_cpu.xml ||
	fail "omp_cores.h: a library that loads libgomp is not called from a fork-join variant"
"$COMPOSE" -L "$work/omplib" -lplaincores --generate-comp-files=omplib/omp_cores.h -o plaincores > /dev/null 2>&1 ||
	fail "omp_cores.h, no OpenMP"
grep -q '<peppher:targetPlatform name="CPU"/>' plaincores/omp_cores/cpu/omp_cores_cpu.xml ||
	fail "omp_cores.h: a library without OpenMP is called from a fork-join variant"
if [ "$(nproc)" -ge 2 ]; then
	printf '#include <stdio.h>\n#include "peppher.h"\nint main(void)\n{\n\tPEPPHER_INITIALIZE();\n\tprintf("%%d\\n", omp_cores());\n\tPEPPHER_SHUTDOWN();\n\treturn 0;\n}\n' > ompcores/main.c
	"$COMPOSE" ompcores/main.xml -o ompcores-gen > /dev/null 2>&1 || fail "omp_cores.h: compose"
	make_quiet -C ompcores-gen CPPFLAGS="-I$work/omplib" > ompcores-build.log 2>&1 ||
		{ tail ompcores-build.log; fail "omp_cores.h: build"; }
	# eager: the call runs on a worker
	cores=$(PEPPHER_NCPU=2 PEPPHER_SCHED=eager OMP_NUM_THREADS=2 LD_LIBRARY_PATH="$work/omplib" \
		./ompcores-gen/omp_cores_app) || fail "omp_cores.h: the program failed"
	[ "$cores" = 2 ] || fail "omp_cores.h: the region's threads ran on $cores core(s), not 2"
fi
# A library that keeps its last error per thread (thread-local storage, as
# TurboJPEG's tjGetErrorStr2(NULL) or POSIX keys, as OpenSSL's error
# queue): its CPU variants run on the thread that made the call, so the
# program reads the error of its own last call, whichever thread a
# runtime would have run it on (every call on a worker: eager and
# PEPPHER_UNDEFERRED=0; StarPU's workers); a library without such state
# keeps variants any worker may run.
mkdir -p tlslib
printf 'int checked_div(int a, int b);\nconst char *last_error(void);\n' > tlslib/lasterr.h
cat > tlslib/lasterr.c <<'END'
#include "lasterr.h"
static __thread const char *error = "no error";
int checked_div(int a, int b)
{
	if (!b) {
		error = "division by zero";
		return 0;
	}
	error = "no error";
	return a / b;
}
const char *last_error(void)
{
	return error;
}
END
gcc -O2 -shared -fPIC -o tlslib/liblasterr.so tlslib/lasterr.c &&
	sed 's/__thread //' tlslib/lasterr.c > tlslib/global.c &&
	gcc -O2 -shared -fPIC -I tlslib -o tlslib/libglobalerr.so tlslib/global.c || fail "liblasterr.so"
"$COMPOSE" -L "$work/tlslib" -llasterr --generate-comp-files=tlslib/lasterr.h -o lasterr > /dev/null 2> lasterr.err ||
	{ cat lasterr.err; fail "lasterr.h"; }
grep -q 'note: .*liblasterr.so keeps state per thread: the 2 CPU variants that call it run on the thread that made the call (callerThread="true")' lasterr.err ||
	{ cat lasterr.err; fail "lasterr.h: no note of the library's per-thread state"; }
grep -q '<peppher:implementation name="checked_div_cpu" callerThread="true">' lasterr/checked_div/cpu/checked_div_cpu.xml ||
	fail "lasterr.h: the CPU variant of a library with per-thread state may run on any thread"
"$COMPOSE" -L "$work/tlslib" -lglobalerr --generate-comp-files=tlslib/lasterr.h -o globalerr > /dev/null 2>&1 ||
	fail "lasterr.h, no per-thread state"
grep -q callerThread globalerr/checked_div/cpu/checked_div_cpu.xml &&
	fail "lasterr.h: a library without per-thread state runs on the calling thread"
# last_error called directly, as OpenSSL's ERR_get_error is (err.h, not
# the evp.h a program composes)
sed -i '/requiredInterface name="last_error"/d' lasterr/main.xml
printf '#include <stdio.h>\n#include "lasterr.h"\n#include "peppher.h"\nint main(void)\n{\n\tint i;\n\n\tPEPPHER_INITIALIZE();\n\tfor (i = 0; i < 20; i++) {\n\t\tchecked_div(1, i %% 2);\n\t\tputs(last_error());\n\t}\n\tPEPPHER_SHUTDOWN();\n\treturn 0;\n}\n' > lasterr/main.c
for rt in "" starpu; do
	"$COMPOSE" lasterr/main.xml -o "lasterr-gen$rt" ${rt:+--runtime=$rt} > /dev/null 2>&1 || fail "lasterr.h: compose $rt"
	[ -z "$rt" ] || pkg-config --exists peppher-starpu || continue
	make_quiet -C "lasterr-gen$rt" CPPFLAGS="-I$work/tlslib" > lasterr-build.log 2>&1 ||
		{ tail lasterr-build.log; fail "lasterr.h: build $rt"; }
	every_call_on_a_worker="PEPPHER_SCHED=eager PEPPHER_UNDEFERRED=0"
	[ -n "$rt" ] && every_call_on_a_worker="STARPU_SILENT=1 STARPU_HOME=$work/starpu-home"
	# shellcheck disable=SC2086
	env $every_call_on_a_worker LD_LIBRARY_PATH="$work/tlslib" "./lasterr-gen$rt/lasterr_app" > "lasterr$rt.out" ||
		fail "lasterr.h: the program failed ($rt)"
	[ "$(grep -c '^division by zero$' "lasterr$rt.out")" = 10 ] &&
		[ "$(grep -c '^no error$' "lasterr$rt.out")" = 10 ] ||
		fail "lasterr.h: the program read another thread's last error ($rt): $(sort "lasterr$rt.out" | uniq -c | tr '\n' ' ')"
done
echo "PASS: headers as real libraries write them compose, build and compute as called directly (libpeppher$(pkg-config --exists peppher-starpu && echo ', StarPU'))"
