#!/bin/sh
# tests/starpu-mpi/test_ranks: what each rank starts with and what the
# ranks agree on (test_ranks.c says what each mode checks).
set -u
out="$top_builddir/tests/out/starpu-mpi/ranks"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"
prog="$top_builddir/tests/starpu-mpi/test_ranks"

# job NAME MPIRUN-ARGUMENTS...: the job's status in $rc; rank R's output
# (stdout, then stderr) in $out/NAME.R.log, all of it in $out/NAME.log
job() {
	name=$1
	shift
	rm -rf "$out/$name"
	PEPPHER_HOME="$out/home" timeout 60 "$MPIRUN" --allow-run-as-root --oversubscribe \
		--bind-to none --output-filename "$out/$name" "$@" > "$out/$name.mpirun.log" 2>&1
	rc=$?
	for d in "$out/$name"/1/rank.*; do
		[ -d "$d" ] && cat "$d/stdout" "$d/stderr" > "$out/$name.${d##*.}.log" 2> /dev/null
	done
	cat "$out/$name.mpirun.log" "$out/$name".[0-9]*.log > "$out/$name.log" 2> /dev/null
}

# passed NAME NP MODE: each rank of the job said its checks passed
passed() {
	[ "$rc" -eq 0 ] || { cat "$out/$1.log"; fail "$1: exit status $rc"; }
	r=0
	while [ $r -lt "$2" ]; do
		grep -q "^rank $r of $2: $3: [1-9][0-9]* checks, 0 failed$" "$out/$1.$r.log" ||
			{ cat "$out/$1.log"; fail "$1: rank $r of $2"; }
		r=$((r + 1))
	done
}

# With the CPU workers' count left to StarPU, at least one: a core for
# StarPU-MPI's progress thread (and one per OpenCL worker) left none on
# one core, so a CPU-only component failed every call, or, without an
# OpenCL device, StarPU did not start.  One rank without mpirun, and two
# ranks, each on one core; OpenCL devices used (PoCL's, where installed),
# then not.
for nopencl in "" 0; do
	(
		unset PEPPHER_NCPU PEPPHER_NOPENCL
		[ -z "$nopencl" ] || export PEPPHER_NOPENCL=$nopencl
		log="$out/workers-1$nopencl.log"
		PEPPHER_HOME="$out/home" timeout 60 taskset -c 0 "$prog" workers > "$log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || { cat "$log"; fail "one rank on one core: exit status $rc"; }
		grep -q "^rank 0 of 1: workers: [1-9][0-9]* checks, 0 failed$" "$log" ||
			{ cat "$log"; fail "one rank on one core"; }
		grep "^rank .*: cpu" "$log"
		job workers-2$nopencl -np 2 taskset -c 0 "$prog" workers
		passed workers-2$nopencl 2 workers
		grep -h "^rank .*: cpu" "$out"/workers-2$nopencl.[01].log
	) || exit 1
done
# Ranks with 1 and 2 CPU workers: partitioned calls of a block per worker
# make as many blocks on each (they made 2 and 4: StarPU-MPI's assertion,
# MPI_ERR_TRUNCATE).
job blocks -np 1 env PEPPHER_NCPU=1 "$prog" blocks : -np 1 env PEPPHER_NCPU=2 "$prog" blocks
passed blocks 2 blocks
grep -h "checks" "$out/blocks.0.log"

# A component with an OpenCL variant only: where one rank has no OpenCL
# worker and the other has, the call cannot run on that rank alone: the
# job ends (it hung, the other rank waiting for that one), saying why;
# where no rank has one, the call fails on both, and they go on.
job opencl-none -np 2 "$prog" opencl
passed opencl-none 2 opencl
grep -q "^rank 1: went on$" "$out/opencl-none.1.log" || { cat "$out/opencl-none.log"; fail "no OpenCL worker on any rank"; }
job opencl -np 1 env PEPPHER_NOPENCL=1 "$prog" opencl : -np 1 "$prog" opencl
if grep -q "^rank 0 of 2: cpu [0-9]* opencl 0$" "$out/opencl.0.log"; then
	echo "no OpenCL device: a call that one rank alone cannot run not checked"
else
	[ $rc -ne 124 ] || { cat "$out/opencl.log"; fail "OpenCL worker on rank 0 only: the job hung"; }
	[ $rc -ne 0 ] || { cat "$out/opencl.log"; fail "OpenCL worker on rank 0 only: exit status 0"; }
	grep -q "^peppher: rank 1 of 2: opencl_only: no worker of this rank can run any variant the call allows, where another rank's can: .*ending the job (MPI_Abort)$" \
		"$out/opencl.1.log" || { cat "$out/opencl.log"; fail "OpenCL worker on rank 0 only: rank 1 did not say why"; }
	! grep -q "went on" "$out/opencl.log" || { cat "$out/opencl.log"; fail "OpenCL worker on rank 0 only: a rank went on"; }
	echo "OpenCL worker on rank 0 of 2 only: the job ended, status $rc"
fi

# MPI started by pph_init runs at MPI_THREAD_MULTIPLE where MPI offers it
# (SERIALIZED, asked before, forbade the program's own MPI calls while
# StarPU-MPI's thread makes its own); started by the program at
# MPI_THREAD_SINGLE, pph_init warns (StarPU's warning is silenced).
job level-multiple -np 2 "$prog" level multiple
passed level-multiple 2 level
best=$(sed -n "s/^rank 0 of 2: thread level //p" "$out/level-multiple.0.log")
job level -np 2 "$prog" level
passed level 2 level
for r in 0 1; do
	grep -q "^rank $r of 2: thread level $best$" "$out/level.$r.log" ||
		{ cat "$out/level.log"; fail "MPI started by pph_init: not the thread level MPI gives the program ($best)"; }
done
job level-single -np 2 "$prog" level single
passed level-single 2 level
for r in 0 1; do
	grep -q "^peppher: warning: MPI runs at MPI_THREAD_SINGLE: StarPU-MPI calls MPI from a thread of its own, which needs MPI_THREAD_SERIALIZED" \
		"$out/level-single.$r.log" || { cat "$out/level-single.log"; fail "MPI_THREAD_SINGLE: rank $r did not warn"; }
done
! grep -q "^peppher: warning: MPI runs" "$out/level.log" "$out/level-multiple.log" ||
	fail "a warning of the thread level where it was MPI_THREAD_MULTIPLE"
echo "thread level: $best where pph_init starts MPI; MPI_THREAD_SINGLE warned of"

# Two application threads calling at once: fine on one rank; on two, each
# rank numbered and ordered data and calls in its threads' own order
# (StarPU-MPI's assertion MPI_ERR_TRUNCATE, or a hang): the job ends,
# saying why.  One thread after the other is fine, and so are threads
# calling at once on raw pointers alone (each rank's own data).
PEPPHER_HOME="$out/home" timeout 60 "$prog" threads > "$out/threads-1.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^rank 0 of 1: threads: [1-9][0-9]* checks, 0 failed$" "$out/threads-1.log" ||
	{ cat "$out/threads-1.log"; fail "two threads on one rank: status $rc"; }
job threads-serial -np 2 "$prog" threads-serial
passed threads-serial 2 threads-serial
job threads-raw -np 2 "$prog" threads-raw
passed threads-raw 2 threads-raw
job threads -np 2 "$prog" threads
[ $rc -ne 124 ] || { cat "$out/threads.log"; fail "two threads at once on 2 ranks: the job hung"; }
[ $rc -ne 0 ] || { cat "$out/threads.log"; fail "two threads at once on 2 ranks: exit status 0"; }
grep -q "^peppher: rank [01] of 2: .* from an application thread while another thread's call is under way: .*ending the job (MPI_Abort)$" \
	"$out/threads.log" || { cat "$out/threads.log"; fail "two threads at once on 2 ranks: no rank said why"; }
echo "two threads at once on 2 ranks: the job ended, status $rc"

# A setting that fails pph_init on one rank only fails it on every rank,
# saying which: that rank stopped while the others started and waited for
# it (the job hung).
job grid -np 1 env PEPPHER_MPI_GRID=2x2 "$prog" workers : -np 2 "$prog" workers
[ $rc -ne 124 ] || { cat "$out/grid.log"; fail "PEPPHER_MPI_GRID on rank 0 only: the job hung"; }
[ $rc -ne 0 ] || { cat "$out/grid.log"; fail "PEPPHER_MPI_GRID on rank 0 only: exit status 0"; }
grep -q "^peppher: PEPPHER_MPI_GRID=2x2: expected PxQ with P\*Q = 3 ranks" "$out/grid.0.log" ||
	{ cat "$out/grid.log"; fail "PEPPHER_MPI_GRID on rank 0 only: rank 0 did not say why"; }
for r in 1 2; do
	grep -q "^peppher: rank 0 of 3 could not start the runtime (it says why): no rank starts it$" "$out/grid.$r.log" ||
		{ cat "$out/grid.log"; fail "PEPPHER_MPI_GRID on rank 0 only: rank $r did not say why"; }
done
! grep -q "checks" "$out/grid.log" || { cat "$out/grid.log"; fail "PEPPHER_MPI_GRID on rank 0 only: a rank started"; }
echo "PEPPHER_MPI_GRID on rank 0 of 3 only: no rank started, status $rc"
echo "PASS: test_ranks"
