#!/bin/sh
# examples/vector_scale, fig3 and saxpy_split composed with
# --runtime=starpu-mpi, on 1, 2 and 4 ranks: every rank prints the result
# libpeppher prints.  vector_scale's raw-pointer calls run on every rank on
# its own data (32 tasks each); fig3's container calls run once in all,
# on the ranks owning what they write (4 tasks over the ranks, not all on
# one); saxpy_split's calls on raw pointers, split into blocks, run on
# every rank on its own arrays, as unsplit ones do (a rank's blocks were
# computed elsewhere, from another rank's arrays).
set -u
out="$top_builddir/tests/out/starpu-mpi/examples"
rm -rf "$out"
mkdir -p "$out"
. "$top_srcdir/tests/starpu-mpi/common.sh"

for ex in vector_scale fig3 saxpy_split; do
	mkdir -p "$out/$ex"
	for rt in peppher starpu-mpi; do
		build $rt "$out/$ex" "$top_srcdir/examples/$ex/main.xml"
	done
	run_seq "$out/$ex" $ex
done

for np in 1 2 4; do
	d="$out/vector_scale"
	run_mpi "$d" $np vector_scale
	same_results "$d" $np "calls on .* elements"
	r=0
	while [ $r -lt $np ]; do
		[ "$(tasks_on "$d" $np $r)" = 32 ] || { cat "$d/np$np/$r.log"; fail "vector_scale: rank $r of $np did not run the 32 calls"; }
		r=$((r + 1))
	done

	d="$out/fig3"
	run_mpi "$d" $np fig3
	same_results "$d" $np "^fig3: "
	r=0 total=0 busy=0
	while [ $r -lt $np ]; do
		n=$(tasks_on "$d" $np $r)
		total=$((total + n))
		[ "$n" -gt 0 ] && busy=$((busy + 1))
		r=$((r + 1))
	done
	[ $total -eq 4 ] || fail "fig3 on $np ranks: $total tasks in all, expected each of the 4 calls once"
	[ $np -eq 1 ] || [ $busy -gt 1 ] || fail "fig3 on $np ranks: all the tasks ran on one rank"

	d="$out/saxpy_split"
	run_mpi "$d" $np saxpy_split
	same_results "$d" $np "correct$|WRONG"
	r=0
	while [ $r -lt $np ]; do
		[ "$(tasks_on "$d" $np $r)" = "$(tasks_on "$d" 1 0)" ] ||
			{ cat "$d/np$np/$r.log"; fail "saxpy_split: rank $r of $np did not run what one rank runs"; }
		r=$((r + 1))
	done
	echo "$np ranks: $(grep -h "calls on" "$out"/*/np$np/0.log | tr '\n' ' ')"
done
echo "PASS: examples on StarPU-MPI"
