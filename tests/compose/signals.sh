#!/bin/sh
# A signal that ends compose (ctrl-C, kill) leaves the output folder as it
# was or with the whole new tree, never a mix, and no temporary files;
# compose ends as the signal would have it (status 128 + its number).  A
# tree of 300 interfaces is composed over an earlier output of it, each
# run interrupted a little later than the one before.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
work="$top_builddir/tests/out/signals"
fail() { echo "FAIL: $*"; exit 1; }
# a shell starts a command in the background with SIGINT ignored, which
# compose keeps ignored (as under nohup): give it the default action
env --default-signal=INT true 2> /dev/null || { echo "SKIP: no env --default-signal"; exit 77; }
rm -rf "$work"
mkdir -p "$work/repo"
cd "$work" || exit 1
ns='xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1"'
n=200

{
	echo "<peppher:component $ns><peppher:implementation name=\"main\"><peppher:sourceFiles>"
	echo "<peppher:sourceFile><peppher:compilation><peppher:compiler type=\"link\">"
	echo "<peppher:name>gcc</peppher:name><peppher:output>app</peppher:output>"
	echo "</peppher:compiler></peppher:compilation></peppher:sourceFile>"
	echo "<peppher:sourceFile name=\"main.c\"/>"
	echo "</peppher:sourceFiles><peppher:requiredInterfaces>"
	i=0
	while [ $i -lt $n ]; do
		echo "<peppher:requiredInterface name=\"f$i\" xmlFile=\"f$i.xml\"/>"
		i=$((i + 1))
	done
	echo "</peppher:requiredInterfaces></peppher:implementation></peppher:component>"
} > repo/main.xml
touch repo/main.c
i=0
while [ $i -lt $n ]; do
	cat > "repo/f$i.xml" <<XML
<peppher:component $ns><peppher:interface name="f$i"><peppher:parameters>
<peppher:parameter name="x" type="float *" accessMode="readwrite" numElements="n"/>
<peppher:parameter name="n" type="int" accessMode="read"/>
</peppher:parameters></peppher:interface></peppher:component>
XML
	mkdir -p "repo/f$i/cpu"
	echo "void f${i}_cpu(float *x, int n) { (void)x; (void)n; }" > "repo/f$i/cpu/f${i}_cpu.c"
	cat > "repo/f$i/cpu/f${i}_cpu.xml" <<XML
<peppher:component $ns><peppher:implementation name="f${i}_cpu">
<peppher:sourceFiles><peppher:sourceFile name="f${i}_cpu.c"/></peppher:sourceFiles>
<peppher:providedInterfaces><peppher:providedInterface name="f$i"/></peppher:providedInterfaces>
<peppher:targetPlatform name="CPU"/></peppher:implementation></peppher:component>
XML
	i=$((i + 1))
done

# the two trees: the old one (useHistoryModels in each entry file) and the new one
"$COMPOSE" --no-check-sources repo/main.xml -o new > /dev/null 2>&1 || fail "compose"
sed -i 's|<peppher:interface name="\(f[0-9]*\)">|<peppher:interface name="\1" useHistoryModels="true">|' repo/f*.xml
"$COMPOSE" --no-check-sources repo/main.xml -o old > /dev/null 2>&1 || fail "compose the old tree"
sed -i 's| useHistoryModels="true"||' repo/f*.xml
diff -r old new > /dev/null && fail "the two trees are the same"

old_seen=no new_seen=no
for delay in 0 0.03 0.06 0.09 0.12 0.15 0.18 0.25 0.5; do
	rm -rf out
	cp -R old out
	env --default-signal=INT "$COMPOSE" --no-check-sources repo/main.xml -o out > /dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -INT "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	tmp=$(find out -name '.*.tmp-*' | head -n 3)
	[ -z "$tmp" ] || fail "after SIGINT at $delay s: temporary files left: $tmp"
	if diff -r old out > /dev/null; then
		[ $rc -eq 130 ] || fail "after SIGINT at $delay s: the old tree, but exit status $rc"
		echo "PASS: SIGINT at $delay s: the old tree"
		old_seen=yes
	elif diff -r new out > /dev/null; then
		[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "after SIGINT at $delay s: the new tree, but exit status $rc"
		echo "PASS: SIGINT at $delay s: the new tree (exit status $rc)"
		new_seen=yes
	else
		diff -rq old out | head -n 3
		fail "after SIGINT at $delay s: neither the old tree nor the new one"
	fi
done
# the signal came while compose ran, at least once
[ $old_seen = yes ] || fail "no run was interrupted"

# Signals compose does not catch: a reader of stderr that went away (compose
# -v | head) and a file size limit (ulimit -f) made SIGPIPE and SIGXFSZ end
# it half way through its renames, with temporaries left.  Both are ignored:
# a lost message does not stop the run, a file too large is an error.
# given the default action, as a shell may have them ignored already
stray_tmp() { find "$1" -name '.*.tmp-*' 2> /dev/null | head -n 3; }
rm -rf out pipe
cp -R old out
mkfifo pipe || fail "mkfifo"
(exec 4< pipe) & # opens the read end, then closes it
exec 3> pipe
wait $!
env --default-signal=PIPE "$COMPOSE" -v --no-check-sources repo/main.xml -o out 2>&3
rc=$?
exec 3>&-
[ -z "$(stray_tmp out)" ] || fail "stderr a closed pipe: temporary files left: $(stray_tmp out)"
[ $rc -eq 0 ] || fail "stderr a closed pipe: exit status $rc, not 0"
diff -r new out > /dev/null || fail "stderr a closed pipe: the output is not the new tree"
echo "PASS: stderr a closed pipe: the new tree, exit status 0"

if (ulimit -f 1) 2> /dev/null; then
	rm -rf out fresh
	cp -R old out
	for to in out fresh/out; do
		(ulimit -f 1 && exec env --default-signal=XFSZ "$COMPOSE" --no-check-sources \
			repo/main.xml -o "$to") > /dev/null 2> xfsz.err
		rc=$?
		[ -z "$(stray_tmp "$to")" ] || fail "ulimit -f, -o $to: temporary files left: $(stray_tmp "$to")"
		[ $rc -eq 1 ] || fail "ulimit -f, -o $to: exit status $rc, not 1"
		grep -q "error: cannot write '.*': File too large" xfsz.err ||
			fail "ulimit -f, -o $to: no 'File too large' error: $(head -n 3 xfsz.err)"
	done
	diff -r old out > /dev/null || fail "ulimit -f: the output folder is not the old tree"
	[ ! -e fresh ] || fail "ulimit -f: the output folder made for the run is left: $(ls -A fresh)"
	echo "PASS: ulimit -f: 'File too large', the old tree kept, no folder made"
else
	echo "SKIP: ulimit -f cannot be set here"
fi

# Utility mode: a signal while its files are staged leaves no temporary and
# none of the folders it made for them (the new functions' folders, the
# output folder itself); a complete tree otherwise.
i=0
{
	echo "#ifndef MANY_H"
	echo "#define MANY_H"
	while [ $i -lt $n ]; do
		echo "void g$i(float *x, int n);"
		i=$((i + 1))
	done
	echo "#endif"
} > many.h
# the whole trees, as written at fresh/tree (paths to many.h are relative) and at over
"$COMPOSE" --generate-comp-files=many.h -o fresh/tree > /dev/null 2>&1 || fail "utility mode"
mv fresh/tree whole-fresh && rm -r fresh
"$COMPOSE" --generate-comp-files=many.h -o whole-over > /dev/null 2>&1 || fail "utility mode"
sed '/^void g0(/d' many.h > fewer.h
"$COMPOSE" --generate-comp-files=fewer.h -o fewer > /dev/null 2>&1 || fail "utility mode, one function less"
sed -i 's|fewer\.h|many.h|' $(grep -rl 'fewer\.h' fewer)
util_old=no util_new=no
for delay in 0.05 0.2 0.5 3; do
	for to in fresh/tree over; do
		rm -rf fresh over
		[ $to = over ] && cp -R fewer over
		env --default-signal=INT "$COMPOSE" --force --generate-comp-files=many.h -o $to > /dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -INT "$pid" 2> /dev/null
		wait "$pid"
		rc=$?
		[ -z "$(stray_tmp .)" ] || fail "utility mode, SIGINT at $delay s: temporary files left: $(stray_tmp .)"
		[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "utility mode, SIGINT at $delay s, -o $to: exit status $rc"
		if [ $rc -eq 0 ] || [ -e $to/g0 ]; then
			diff -r "whole-${to%%/*}" $to > /dev/null || fail "utility mode, SIGINT at $delay s, -o $to: not the whole tree (exit status $rc)"
			util_new=yes
		elif [ $to = over ]; then
			diff -r fewer over > /dev/null || { diff -rq fewer over | head -n 3; fail "utility mode, SIGINT at $delay s: the tree changed"; }
			util_old=yes
		else
			[ ! -e fresh ] || fail "utility mode, SIGINT at $delay s: folders it made are left: $(find fresh | head -n 3)"
			util_old=yes
		fi
	done
done
[ $util_old = yes ] || fail "utility mode: no run was interrupted"
echo "PASS: utility mode: SIGINT while staging leaves no temporary and no folder it made (the whole tree: $util_new)"
