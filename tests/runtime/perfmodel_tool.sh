#!/bin/sh
# peppher-perfmodel on a model written by hand: list, show, plot, reset.
set -u
: "${top_builddir:?}"
tool="$top_builddir/tools/peppher-perfmodel"
dir="$top_builddir/tests/out/perfmodel-tool"
rm -rf "$dir"
mkdir -p "$dir"
cat > "$dir/sort.model" <<'MODEL'
peppher-perfmodel 1
codelet sort
variant sort_merge CPU
entry 00000001 1000 4 10 2 0
entry 00000002 2000 4 20 2 0
entry 00000003 4000 4 40 2 1 0 41.5
MODEL
fail() { echo "FAIL: $*"; exit 1; }
out=$("$tool" -d "$dir" list) || fail "list"
echo "$out"
echo "$out" | grep -Eq '^sort +1 +3 +12$' || fail "list output"
out=$("$tool" -d "$dir" show sort) || fail "show"
echo "$out"
echo "$out" | grep -q "variant sort_merge on CPU" || fail "show variant"
echo "$out" | grep -Eq "00000003 +4000 +4 +40.000 +0.816 +1 +0 +41.500$" || fail "show entry"
# the slowest sample of a file from before it was kept: not known
echo "$out" | grep -Eq "00000002 +2000 +4 +20.000 +0.816 +0 +0 +-$" || fail "show entry of an older file"
echo "$out" | grep -Eq "regression: t = .* \* size\^1.0000" || fail "show regression"
# both fits: the file does not say which kind the codelet uses
echo "$out" | grep -Eq "regression: t = .* \* size\^1.0000 \+ .* us \(3 sizes; the default and useNLRegressionModels\)" &&
	echo "$out" | grep -Eq "regression: t = .* \* size\^1.0000 us \(useRegressionModels\)" ||
	fail "show: the fits with and without a constant"
# a file cut short is said to be, and not as something the tool does about it
printf 'peppher-perfmodel 1\ncodelet he' > "$dir/he.model"
"$tool" -d "$dir" show he > /dev/null 2> "$dir/he.err" && fail "show of a file cut short"
grep -qx "peppher: warning: $dir/he.model:2: cut short" "$dir/he.err" || { cat "$dir/he.err"; fail "cut short"; }
rm "$dir/he.model"
(cd "$dir" && "$tool" -d "$dir" plot sort) || fail "plot"
grep -q "index 0 with yerrorbars title 'sort_merge (CPU)'" "$dir/sort.gp" || fail "plot script"
[ "$(grep -c '^[0-9]' "$dir/sort.dat")" -eq 3 ] || fail "plot data"
# names as they are (enhanced text made srt_omp "srt" and a subscript), a
# fit titled as its points (a team of 2's was titled as one thread's), a
# quote in a name doubled
cat > "$dir/srt.model" <<'MODEL'
peppher-perfmodel 1
codelet srt
variant srt_omp CPU
entry 00000001 1000 4 10 2 0
entry 00000002 2000 4 20 2 0
entry 00000003 4000 4 40 2 0
variant srt_omp CPU 2
entry 00000001 1000 4 6 2 0
entry 00000002 2000 4 11 2 0
entry 00000003 4000 4 21 2 0
variant it's CPU
MODEL
(cd "$dir" && "$tool" -d "$dir" plot srt > /dev/null) || fail "plot srt"
grep -q "^set terminal png noenhanced" "$dir/srt.gp" || fail "plot: enhanced text"
[ "$(grep -c "title 'srt_omp (CPU) regression'" "$dir/srt.gp")" -eq 1 ] &&
	[ "$(grep -c "title 'srt_omp (CPU x2) regression'" "$dir/srt.gp")" -eq 1 ] ||
	{ cat "$dir/srt.gp"; fail "plot: the fits of a variant's team sizes titled alike"; }
grep -q "title 'it''s (CPU)'" "$dir/srt.gp" || { cat "$dir/srt.gp"; fail "plot: a quote in a name"; }
if command -v gnuplot > /dev/null; then
	(cd "$dir" && gnuplot srt.gp) > "$dir/gnuplot.log" 2>&1 && [ -s "$dir/srt.png" ] ||
		{ cat "$dir/gnuplot.log"; fail "gnuplot srt.gp"; }
fi
rm -f "$dir/srt.model"
# a command the tool does not know is named
"$tool" -d "$dir" bogus sort > /dev/null 2> "$dir/bogus.err"
[ $? -eq 2 ] || fail "an unknown command: exit status"
grep -qx "peppher-perfmodel: unknown command 'bogus'" "$dir/bogus.err" || { cat "$dir/bogus.err"; fail "an unknown command not named"; }
"$tool" -d "$dir" show > /dev/null 2> "$dir/bogus.err"
[ $? -eq 2 ] && grep -qx "peppher-perfmodel: show takes one CODELET" "$dir/bogus.err" ||
	{ cat "$dir/bogus.err"; fail "show without a codelet"; }
# list with a corrupt model: the others listed, the corrupt one said, and failure
printf 'peppher-perfmodel 1\ncodelet bad\nentry oops\n' > "$dir/bad.model"
out=$("$tool" -d "$dir" list 2> "$dir/list.err") && fail "list with a corrupt model: exit status 0"
echo "$out" | grep -Eq '^sort +1 +3 +12$' || fail "list with a corrupt model: the others"
grep -q "bad.model:3: corrupt performance model" "$dir/list.err" || { cat "$dir/list.err"; fail "list: the corrupt model said"; }
rm "$dir/bad.model"
# where StarPU's models are, and what reads them
help=$("$tool" --help) || fail "--help"
for want in '~/.peppher/perfmodels/HOST' 'starpu-tools' 'STARPU_HOME=$PEPPHER_HOME/starpu starpu_perfmodel_display' \
	'peppher.CODELET.HASH' '~/.peppher/starpu'; do
	echo "$help" | grep -qF "$want" || fail "--help does not say $want"
done
"$tool" -d "$dir" reset sort || fail "reset"
[ ! -e "$dir/sort.model" ] || fail "reset left the model"
"$tool" -d "$dir" show sort 2>/dev/null && fail "show of a removed model"
# no models folder: the tool says so, not the runtime's "models will not be saved"
out=$(env -u PEPPHER_HOME HOME=/no/such/home "$tool" list 2>&1) && fail "list without a models folder"
echo "$out" | grep -q "will not be saved" && { echo "$out"; fail "list: the runtime's warning"; }
echo "$out" | grep -q "^peppher-perfmodel: no models folder" || { echo "$out"; fail "list: no models folder"; }
# a home with StarPU's models only (libpeppher-starpu): where they are
mkdir -p "$dir/home/starpu"
out=$("$tool" -d "$dir/home/perfmodels/host" list 2>&1) && fail "list of a folder not made"
echo "$out" | grep -q "^peppher-perfmodel: $dir/home/perfmodels/host: no models yet" ||
	{ echo "$out"; fail "list: no models yet"; }
echo "$out" | grep -q "StarPU's models in $dir/home/starpu: STARPU_HOME=$dir/home/starpu starpu_perfmodel_display -l" ||
	{ echo "$out"; fail "list: StarPU's models"; }
[ "$("$tool" --version)" = "peppher-perfmodel (PEPPHER-C) $(sed -n 's/^Version: //p' "$top_builddir/peppher.pc")" ] ||
	fail "--version"
echo "PASS: peppher-perfmodel"
