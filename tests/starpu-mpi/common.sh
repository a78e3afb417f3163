# Sourced by the tests of libpeppher-starpu-mpi: skip (77) where it or
# mpirun is absent; compose and build an application for a runtime, run it
# on N ranks with one log per rank, and check what each rank printed.
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
pkg-config --exists peppher-starpu-mpi || { echo "libpeppher-starpu-mpi not built (no StarPU-MPI): skipped"; exit 77; }
MPIRUN=$(pkg-config --variable=mpirun peppher-starpu-mpi)
[ -n "$MPIRUN" ] && [ -x "$MPIRUN" ] || { echo "no mpirun: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# Ranks share this machine's cores: one CPU worker each, no OpenCL device
# (PoCL would run every rank's kernels on all the cores), no binding.
STARPU_SILENT=1 PEPPHER_NCPU=1 PEPPHER_NOPENCL=0 PEPPHER_STATS=1 STARPU_COMM_STATS=1
export STARPU_SILENT PEPPHER_NCPU PEPPHER_NOPENCL PEPPHER_STATS STARPU_COMM_STATS

. "$top_srcdir/tests/platforms.sh"
cuda_opt=$(no_gpu_cuda) # CUDA variants left out where no GPU is

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

# run_seq DIR PROGRAM [ARGS]: the libpeppher build, one process: DIR/peppher.log
run_seq() {
	dir=$1 prog=$2
	shift 2
	rm -rf "$dir/home"
	PEPPHER_HOME="$dir/home" PEPPHER_NCPU=2 "$dir/peppher/$prog" "$@" > "$dir/peppher.log" 2>&1 ||
		{ cat "$dir/peppher.log"; fail "$prog on libpeppher exited with $?"; }
}

# run_mpi DIR NP PROGRAM [ARGS]: the starpu-mpi build on NP ranks; rank R's
# output in DIR/npNP/R.log (stdout, then stderr)
run_mpi() {
	dir=$1 np=$2 prog=$3
	shift 3
	rm -rf "$dir/np$np" "$dir/home-mpi"
	mkdir -p "$dir/np$np"
	PEPPHER_HOME="$dir/home-mpi" timeout 300 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none \
		--output-filename "$dir/np$np/out" -np "$np" "$dir/starpu-mpi/$prog" "$@" > "$dir/np$np/mpirun.log" 2>&1
	rc=$?
	r=0
	while [ $r -lt "$np" ]; do
		cat "$dir/np$np/out/1/rank.$r/stdout" "$dir/np$np/out/1/rank.$r/stderr" > "$dir/np$np/$r.log" 2> /dev/null
		r=$((r + 1))
	done
	[ $rc -eq 0 ] || { cat "$dir/np$np/mpirun.log"; fail "$prog on $np ranks exited with $rc"; }
}

# same_results DIR NP PATTERN: every rank printed the lines matching
# PATTERN that libpeppher printed
same_results() {
	dir=$1 np=$2
	grep -E "$3" "$dir/peppher.log" > "$dir/peppher.results"
	[ -s "$dir/peppher.results" ] || { cat "$dir/peppher.log"; fail "no result on libpeppher"; }
	r=0
	while [ $r -lt "$np" ]; do
		grep -E "$3" "$dir/np$np/$r.log" > "$dir/np$np/$r.results"
		diff -u "$dir/peppher.results" "$dir/np$np/$r.results" ||
			{ cat "$dir/np$np/$r.log"; fail "rank $r of $np: results differ from libpeppher's"; }
		r=$((r + 1))
	done
}

# tasks_on DIR NP RANK: how many tasks rank RANK ran (PEPPHER_STATS=1)
tasks_on() {
	sed -n "s/^rank $3 of $2: \([0-9]*\) tasks ran here.*/\1/p" "$1/np$2/$3.log"
}

# distributed DIR NP: every rank ran tasks, and some data moved between ranks
distributed() {
	r=0 d_sent=0
	while [ $r -lt "$2" ]; do
		d_tasks=$(tasks_on "$1" "$2" $r)
		[ -n "$d_tasks" ] && [ "$d_tasks" -gt 0 ] || { cat "$1/np$2/$r.log"; fail "rank $r of $2 ran no task"; }
		d_bytes=$(sed -n "s/^rank $r of $2: .* tasks ran here, \([0-9]*\) bytes sent.*/\1/p" "$1/np$2/$r.log")
		d_sent=$((d_sent + d_bytes))
		r=$((r + 1))
	done
	[ "$2" -eq 1 ] || [ "$d_sent" -gt 0 ] || fail "$2 ranks: no byte sent between ranks"
}
