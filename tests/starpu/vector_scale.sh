#!/bin/sh
# examples/vector_scale on libpeppher and on StarPU (compose --runtime=starpu):
# the same result, with every variant, with the CPU variants alone and
# with the OpenCL variant alone (where OpenCL is built in: PoCL here).
set -u
out="$top_builddir/tests/out/starpu/vector_scale"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu/common.sh"
main="$top_srcdir/examples/vector_scale/main.xml"

sets="all cpu"
[ -n "$(pkg-config --variable=opencl_libs peppher-starpu)" ] && sets="$sets opencl"
for set in $sets; do
	mkdir -p "$out/$set"
	case $set in
	all) opts= ;;
	cpu) opts=--disable-opencl ;;
	opencl) opts=--disable-cpu ;;
	esac
	for rt in peppher starpu; do
		build $rt "$out/$set" "$main" $opts
		run $rt "$out/$set" vector_scale
	done
	same_results "$out/$set" "calls on .* elements"
	grep -q "calls on 100000 elements: correct" "$out/$set/starpu.log" || fail "$set: wrong result on StarPU"
	case $set in
	cpu) grep -q "vector_scale/vector_scale_cpu_[a-z]*: [1-9]" "$out/$set/starpu.log" ;;
	opencl) grep -q "vector_scale/vector_scale_opencl: [1-9]" "$out/$set/starpu.log" ;;
	esac || { cat "$out/$set/starpu.log"; fail "$set: its variants did not run on StarPU"; }
	echo "$set: $(grep "calls on" "$out/$set/starpu.log")"
done
# a bad PEPPHER_SCHED stops the program with the reason, as on libpeppher
PEPPHER_HOME="$out/home" PEPPHER_SCHED=bogus "$out/all/starpu/vector_scale" > "$out/bad.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "PEPPHER_SCHED=bogus" "$out/bad.log" || { cat "$out/bad.log"; fail "PEPPHER_SCHED=bogus: exit status $rc"; }
for sched in eager ws; do
	PEPPHER_HOME="$out/home" PEPPHER_SCHED=$sched "$out/all/starpu/vector_scale" > "$out/$sched.log" 2>&1 &&
		grep -q "calls on 100000 elements: correct" "$out/$sched.log" || { cat "$out/$sched.log"; fail "PEPPHER_SCHED=$sched"; }
done
# StarPU's models go where libpeppher's do; a HOME that is no folder is
# not created: a warning, and a temporary folder for the run
(
	unset PEPPHER_HOME STARPU_HOME
	HOME="$out/user" && mkdir -p "$HOME" && export HOME
	"$out/all/starpu/vector_scale" > "$out/home.log" 2>&1 && [ -d "$HOME/.peppher/starpu/.starpu" ] ||
		{ cat "$out/home.log"; fail "StarPU's models not under \$HOME/.peppher/starpu"; }
	HOME="$out/no/such/home"
	"$out/all/starpu/vector_scale" > "$out/nohome.log" 2>&1 || { cat "$out/nohome.log"; fail "a HOME that is no folder"; }
	grep -q "HOME=$HOME is not an absolute path to an existing folder and PEPPHER_HOME is not set" "$out/nohome.log" ||
		{ cat "$out/nohome.log"; fail "no warning for a HOME that is no folder"; }
	[ -e "$out/no/such/home/.starpu" ] && fail "StarPU created a HOME that did not exist"
	# a folder StarPU cannot write in (here a file in its path; a read-only
	# or full file system alike): a warning and a temporary folder, where
	# starpu_initialize aborted the process
	HOME="$out/user"
	: > "$out/afile"
	PEPPHER_HOME="$out/afile" "$out/all/starpu/vector_scale" > "$out/filehome.log" 2>&1 &&
		grep -q "calls on 100000 elements: correct" "$out/filehome.log" ||
		{ cat "$out/filehome.log"; fail "a PEPPHER_HOME that is a file"; }
	grep -q "warning: cannot create $out/afile/starpu/.starpu/sampling: Not a directory: performance models will not be saved" "$out/filehome.log" ||
		{ cat "$out/filehome.log"; fail "no warning for a PEPPHER_HOME that is a file"; }
	HOME="$out/user2" && mkdir -p "$HOME" && : > "$HOME/.peppher"
	"$out/all/starpu/vector_scale" > "$out/filedot.log" 2>&1 &&
		grep -q "calls on 100000 elements: correct" "$out/filedot.log" &&
		grep -q "warning: cannot create $HOME/.peppher/starpu/.starpu/sampling: Not a directory" "$out/filedot.log" ||
		{ cat "$out/filedot.log"; fail "a HOME whose .peppher is a file"; }
	STARPU_HOME="$out/afile" "$out/all/starpu/vector_scale" > "$out/filestarpu.log" 2>&1 &&
		grep -q "calls on 100000 elements: correct" "$out/filestarpu.log" &&
		grep -q "warning: cannot create $out/afile/.starpu/sampling: Not a directory" "$out/filestarpu.log" ||
		{ cat "$out/filestarpu.log"; fail "a STARPU_HOME that is a file"; }
	exit 0
) || exit 1
echo "PASS: vector_scale on StarPU"
