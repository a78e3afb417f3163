#!/bin/sh
# compose time against the number of components: synthetic repositories of
# 10, 100 and 1000 interfaces with 4 variants each; prints the time per size
# and the growth ratio per 10x (linear growth: about 10).  Target: < 1 s
# for 1000 interfaces.  Each variant's source defines its function, so
# compose checks 4 prototypes per interface (libclang), most of its time.
# The last column is the file system's share: copying the output folder
# (cp -r, best of 3), which creates as many files as compose writes.
set -eu
compose=${COMPOSE:-$(dirname "$0")/../build/compose/compose}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ns='xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1"'
xsi='xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'

make_repo() { # dir count
	dir=$1 n=$2
	mkdir -p "$dir"
	{
		echo "<peppher:component $ns><peppher:implementation name=\"main\"><peppher:sourceFiles>"
		echo "<peppher:sourceFile><peppher:compilation><peppher:compiler type=\"link\">"
		echo "<peppher:name>gcc</peppher:name><peppher:output>app</peppher:output>"
		echo "</peppher:compiler></peppher:compilation></peppher:sourceFile>"
		echo "<peppher:sourceFile name=\"main.c\"/>"
		echo "</peppher:sourceFiles><peppher:requiredInterfaces>"
		i=0
		while [ $i -lt "$n" ]; do
			echo "<peppher:requiredInterface name=\"f$i\" xmlFile=\"f$i.xml\"/>"
			i=$((i + 1))
		done
		echo "</peppher:requiredInterfaces></peppher:implementation></peppher:component>"
	} > "$dir/main.xml"
	touch "$dir/main.c"
	i=0
	while [ $i -lt "$n" ]; do
		cat > "$dir/f$i.xml" <<XML
<peppher:component $ns><peppher:interface name="f$i"><peppher:parameters>
<peppher:parameter name="x" type="float *" accessMode="readwrite" numElements="n"/>
<peppher:parameter name="n" type="int" accessMode="read"/>
<peppher:parameter name="a" type="float" accessMode="read"/>
</peppher:parameters></peppher:interface></peppher:component>
XML
		for v in 0 1 2 3; do
			mkdir -p "$dir/f$i/v$v"
			cat > "$dir/f$i/v$v/f${i}_v$v.c" <<C
#include <math.h>
void f${i}_v$v(float *x, int n, float a)
{
	for (int k = 0; k < n; k++)
		x[k] = fmaf(a, x[k], 1.0f);
}
C
			# as ComPU's templates write them
			cat > "$dir/f$i/v$v/f${i}_v$v.xml" <<XML
<?xml version="1.0"?>
<peppher:component $xsi
	$ns
	xsi:schemaLocation="http://www.peppher.eu/ComponentMetaData0.1 ComponentMetaData.xsd" >

	<peppher:implementation name="f${i}_v$v">
		<peppher:sourceFiles>
			<peppher:sourceFile name="f${i}_v$v.c" version="1.0" language="C">
				<peppher:compilation>
					<peppher:compiler>
						<peppher:name>gcc</peppher:name>
						<peppher:version></peppher:version>
						<peppher:flags> -O2 </peppher:flags>
					</peppher:compiler>
				</peppher:compilation>
			</peppher:sourceFile>
		</peppher:sourceFiles>

		<peppher:providedInterfaces>
			<peppher:providedInterface name="f$i" />
		</peppher:providedInterfaces>

		<peppher:targetPlatform name="CPU">
		</peppher:targetPlatform>
	</peppher:implementation>
</peppher:component>
XML
		done
		i=$((i + 1))
	done
}

now() { date +%s.%N; }

best_of_3() { # n fresh|again [compose options]: the shortest of three composes,
	# into an empty output folder or over the output of the same compose
	n=$1 mode=$2
	shift 2
	best=
	for run in 1 2 3; do
		[ "$mode" = fresh ] && rm -rf "$work/out$n"
		t0=$(now)
		"$compose" "$work/r$n/main.xml" -o "$work/out$n" "$@" > /dev/null
		t=$(echo "$(now) - $t0" | bc)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}

echo "compose_scale: interfaces x 4 variants, seconds per compose (best of 3) into an"
echo "empty output folder; the prototype checks' share (against --no-check-sources);"
echo "and composing again over unchanged output (nothing is rewritten)"
prev=
for n in 10 100 1000; do
	make_repo "$work/r$n" $n
	full=$(best_of_3 $n fresh)
	bare=$(best_of_3 $n fresh --no-check-sources)
	again=$(best_of_3 $n again)
	checks=$(echo "$full - $bare" | bc)
	copy=
	for run in 1 2 3; do
		rm -rf "$work/copy$n"
		t0=$(now)
		cp -r "$work/out$n" "$work/copy$n"
		t=$(echo "$(now) - $t0" | bc)
		if [ -z "$copy" ] || [ "$(echo "$t < $copy" | bc)" = 1 ]; then copy=$t; fi
	done
	rm -rf "$work/copy$n"
	printf "%6d interfaces: %7.3f s   checks %6.3f s (%.2f ms per source)   again %6.3f s" \
		$n "$full" "$checks" "$(echo "$checks * 1000 / ($n * 4)" | bc -l)" "$again"
	if [ -n "$prev" ]; then
		printf "   growth x%.1f for 10x" "$(echo "$full / $prev" | bc -l)"
	fi
	printf "   copying the %d files %.3f s\n" "$(ls "$work/out$n" | wc -l)" "$copy"
	prev=$full
done
echo "target: < 1 s for 1000 interfaces, growth about 10 per 10x"
