# Sourced by the tests of libpeppher-starpu: skip (77) where it is not
# built; compose, build and run one application against either runtime.
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
pkg-config --exists peppher-starpu || { echo "libpeppher-starpu not built (no StarPU): skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# StarPU writes its performance models under STARPU_HOME: a test folder;
# quick runs do not need its messages about calibration
STARPU_SILENT=1
export STARPU_SILENT

. "$top_srcdir/tests/platforms.sh"
# CUDA variants left out where no GPU is; repository.sh sets cuda_opt empty
cuda_opt=$(no_gpu_cuda)

# build RUNTIME DIR MAIN.xml [compose options]: compose into DIR/RUNTIME and build
build() {
	rt=$1 dir=$2 main=$3
	shift 3
	# shellcheck disable=SC2086
	"$COMPOSE" --runtime="$rt" $cuda_opt "$@" "$main" -o "$dir/$rt" 2> "$dir/$rt.compose.log" ||
		{ cat "$dir/$rt.compose.log"; fail "compose --runtime=$rt $*"; }
	make -s -j2 -C "$dir/$rt" > "$dir/$rt.make.log" 2>&1 ||
		{ cat "$dir/$rt.make.log"; fail "build for $rt"; }
}

# run RUNTIME DIR PROGRAM: run it with fresh models, log in DIR/RUNTIME.log
run() {
	rt=$1 dir=$2 prog=$3
	rm -rf "$dir/home-$rt"
	PEPPHER_HOME="$dir/home-$rt" STARPU_HOME="$dir/home-$rt/starpu" PEPPHER_NCPU=2 PEPPHER_STATS=1 \
		"$dir/$rt/$prog" > "$dir/$rt.log" 2>&1 ||
		{ cat "$dir/$rt.log"; fail "$prog on $rt exited with $?"; }
}

# same_results DIR PATTERN: the lines matching PATTERN agree between the runtimes
same_results() {
	grep -E "$2" "$1/peppher.log" > "$1/peppher.results"
	grep -E "$2" "$1/starpu.log" > "$1/starpu.results"
	[ -s "$1/starpu.results" ] || { cat "$1/starpu.log"; fail "no result on StarPU"; }
	diff -u "$1/peppher.results" "$1/starpu.results" || fail "results differ between libpeppher and StarPU"
}
