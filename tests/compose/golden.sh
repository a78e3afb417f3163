#!/bin/sh
# Golden-file test of compose.  Each folder in tests/compose/data/golden/ is a
# descriptor set (main.xml ...) with the files compose must generate for it in
# expected/, composed into a folder beside main.xml (out/), which makes the
# paths relative (outside it they are absolute).  The generated C is also compiled, as C and as C++, with
# warnings as errors; a case with a run.expected is built with the generated
# Makefile and run, and must print exactly that (with the settings in
# run.env, if any).  PEPPHER_REGEN=1 rewrites
# expected/ from the output.  Every C++ source (the C ones as C++ too, a CUDA
# backend's host code) also compiles with exceptions off (-fno-exceptions:
# a backend's try is an error there).  The entry wrappers are composed as
# C++ too (--wrapper-ext=cpp), and compile quietly under the warnings of a
# C++ project's own (-Wold-style-cast, -Wuseless-cast, -Wcast-qual,
# -Wzero-as-null-pointer-constant, with g++ and clang++).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
# The expected files hold every platform's wrappers: a build without one
# composes without it (configure --without-cuda, --disable-openmp ...).
. "$top_srcdir/tests/platforms.sh"
need_platforms "the expected files have it" OPENMP CUDA OPENCL
data="$top_srcdir/tests/compose/data/golden"
work="$top_builddir/tests/out/golden"
fail=0

compile_check() { # folder
	for f in "$1"/*.c "$1"/*.cpp "$1"/*.cu; do
		[ -e "$f" ] || continue
		# C++ sources (a .cpp variant's backend, a CUDA one's host code)
		# under a C++ project's warnings too
		strict=
		case "$f" in
		*.c) gcc -std=c11 -Wall -Wextra -Wcast-qual -Werror -fsyntax-only -I"$top_srcdir/include" -I"$1" "$f" || return 1 ;;
		*) strict="$cxx_warnings -Wuseless-cast" ;;
		esac
		for exceptions in -fexceptions -fno-exceptions; do
			g++ -x c++ -std=c++11 $exceptions -Wall -Wextra -Werror $strict -fsyntax-only \
				-I"$top_srcdir/include" -I"$1" "$f" || return 1
		done
	done
	g++ -x c++ -Wall -Wextra -Werror -fsyntax-only -I"$top_srcdir/include" "$1/peppher.h" || return 1
}

cxx_warnings="-Wall -Wextra -Wcast-qual -Wold-style-cast -Wzero-as-null-pointer-constant -Werror"
cxx_entry_check() { # work
	(cd "$1/src" && "$COMPOSE" --platforms=CPU,OPENMP,CUDA,OPENCL --wrapper-ext=cpp main.xml \
		-o ../cxx > /dev/null) || return 1
	for f in "$1"/cxx/*_entry.cpp; do
		g++ -std=c++11 $cxx_warnings -Wuseless-cast -fsyntax-only -I"$top_srcdir/include" \
			-I"$1/cxx" "$f" || return 1
		if command -v clang++ > /dev/null; then
			clang++ -std=c++11 $cxx_warnings -fsyntax-only -I"$top_srcdir/include" \
				-I"$1/cxx" "$f" || return 1
		fi
	done
}

# Compose again for the platforms this build has (nvcc may be missing),
# build with the generated Makefile, run, compare.
run_check() { # case work
	(cd "$2/src" && "$COMPOSE" main.xml -o run 2> /dev/null) || return 1
	program=$(sed -n 's/^PROGRAM = //p' "$2/src/run/Makefile")
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$2/src/run" || return 1
	# run.env: settings of the case's own (an OpenCL device: PEPPHER_NOPENCL=1)
	PEPPHER_HOME="$2/home" PEPPHER_NOPENCL=0 POCL_CACHE_DIR="$2/pocl" \
		env $(cat "$1/run.env" 2> /dev/null) "$2/src/run/$program" > "$2/run.out" || return 1
	diff -u "$1/run.expected" "$2/run.out"
}

for case in "$data"/*/; do
	name=$(basename "$case")
	rm -rf "${work:?}/$name"
	mkdir -p "$work/$name"
	cp -R "$case" "$work/$name/src"
	chmod -R u+w "$work/$name/src"
	rm -rf "$work/$name/src/expected" "$work/$name/src/run.expected" "$work/$name/src/run.env"
	if ! (cd "$work/$name/src" &&
	      "$COMPOSE" --platforms=CPU,OPENMP,CUDA,OPENCL main.xml -o out); then
		echo "FAIL: $name: compose failed"
		fail=1
		continue
	fi
	if [ "${PEPPHER_REGEN:-0}" = 1 ]; then
		rm -rf "$case/expected"
		cp -R "$work/$name/src/out" "$case/expected"
		echo "regenerated $case/expected"
	fi
	if ! diff -ru "$case/expected" "$work/$name/src/out"; then
		echo "FAIL: $name: generated files differ from expected/"
		fail=1
	elif ! compile_check "$work/$name/src/out"; then
		echo "FAIL: $name: generated code does not compile"
		fail=1
	elif ! cxx_entry_check "$work/$name"; then
		echo "FAIL: $name: C++ entry wrappers do not compile quietly"
		fail=1
	elif [ -f "$case/run.expected" ] && ! run_check "$case" "$work/$name"; then
		echo "FAIL: $name: the composed program did not print run.expected"
		fail=1
	else
		echo "PASS: $name"
	fi
done
exit $fail
