#!/bin/sh
# make evaluation: reproduce the paper's section V and write
# doc/evaluation.md from evaluation/evaluation.md.in, each marker line
# <!-- NAME --> replaced by what this run measured: table-I (loc.sh),
# machine, fig6, fig7 and fig5 (perf.sh), and the figures' PNGs beside it
# (scripts/plot-evaluation), fig6-choices (what dynamic selection ran);
# gpu-machine, gpu-fig6, gpu-fig5 and gpu-choices from the runs made on a
# machine with a GPU and kept in evaluation/gpu-runs/ (perf.sh's OUT there).  Table I needs cloc, installed here on demand
# (Debian package cloc).  EVAL_SKIP_PERF=1 writes Table I only;
# EVAL_REUSE=1 rewrites the page from the last run's measurements (kept in
# BUILDDIR/tests/out/evaluation-runs) without running anything again.
set -eu
: "${top_srcdir:?}" "${top_builddir:?}"
if ! command -v cloc > /dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		apt-get install -y cloc > /dev/null
	else
		echo "evaluate.sh: install cloc (apt-get install cloc) first" >&2
		exit 1
	fi
fi
doc=$top_srcdir/doc/evaluation.md
runs=$top_builddir/tests/out/evaluation-runs
mkdir -p "$runs"
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT

sh "$top_srcdir/evaluation/loc.sh" "$top_srcdir" > "$parts/table-I"

machine() {
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || true)
	ocl=$(clinfo -l 2> /dev/null | sed -n 's/.*Device #0: //p' | head -1 || true)
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores (${cpu:-CPU model unknown}),"
	echo "OpenCL on ${ocl:-PoCL, on the same cores}; load average before the runs:"
	echo "$(cut -d' ' -f1-3 /proc/loadavg), after: LOADAVG_AFTER (2 or more: other work shared the machine)."
}

# The machine's noise as the runs start and end: tools/noise.c in 10
# processes with every core and 10 with one thread, without PEPPHER.
noise() {
	[ -x "$parts/noise" ] ||
		gcc -O2 -fopenmp "$top_srcdir/evaluation/tools/noise.c" -o "$parts/noise" || return 0
	for t in $(nproc) 1; do
		for i in 1 2 3 4 5 6 7 8 9 10; do
			OMP_NUM_THREADS=$t "$parts/noise" | cut -d' ' -f1
		done | sort -n | awk -v t="$t" '{ v[NR] = $1 }
			END { printf "%s%d thread%s %.1f-%.1f ms (median %.1f)", t == 1 ? ", " : "", t,
			      t == 1 ? "" : "s", v[1], v[NR], (v[5] + v[6]) / 2 }'
	done
}

choices() { # perf.sh's dynamic-choices.txt, as a block of the page
	if [ -s "$1" ]; then
		echo '```text'
		cat "$1"
		echo '```'
	else
		echo "Not recorded by this run (perf.sh writes it since 2026-11-25)."
	fi
}

if [ "${EVAL_SKIP_PERF:-0}" = 1 ]; then
	for p in machine fig6 fig7 fig5 fig6-choices; do
		echo "Not run (EVAL_SKIP_PERF=1)." > "$parts/$p"
	done
elif [ "${EVAL_REUSE:-0}" = 1 ]; then
	cp "$runs/machine.md" "$parts/machine"
	for f in fig6 fig7 fig5; do
		sh "$top_srcdir/evaluation/perf.sh" "$f-table" "$runs" > "$parts/$f"
	done
	sh "$top_srcdir/scripts/plot-evaluation" "$runs" "$top_srcdir/doc" > /dev/null
	choices "$runs/dynamic-choices.txt" > "$parts/fig6-choices"
else
	machine > "$parts/machine"
	echo "A plain OpenMP loop without PEPPHER (8 products of 256 x 256 floats, evaluation/tools/noise.c)," >> "$parts/machine"
	echo "10 processes each, took before the runs: $(noise); after: NOISE_AFTER." >> "$parts/machine"
	start=$(date +%s)
	for f in fig6 fig7 fig5; do
		echo "evaluate.sh: $f" >&2
		sh "$top_srcdir/evaluation/perf.sh" "$f" "$runs" > "$parts/$f"
	done
	sed -i "s|LOADAVG_AFTER|$(cut -d' ' -f1-3 /proc/loadavg)|; s|NOISE_AFTER|$(noise)|" "$parts/machine"
	echo "The timed runs took $(( ($(date +%s) - start) / 60 )) minutes." >> "$parts/machine"
	cp "$parts/machine" "$runs/machine.md"
	sh "$top_srcdir/scripts/plot-evaluation" "$runs" "$top_srcdir/doc" > /dev/null
	choices "$runs/dynamic-choices.txt" > "$parts/fig6-choices"
	# a run with CUDA columns replaces the GPU machine's runs kept in the tree
	if grep -q '^[^ ]* CUDA ' "$runs/fig6.dat"; then
		{
			cat "$parts/machine"
			echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)."
		} > "$top_srcdir/evaluation/gpu-runs/machine.md"
		for f in fig6.dat fig6.raw fig5.dat fig5.raw dynamic-choices.txt; do
			cp "$runs/$f" "$top_srcdir/evaluation/gpu-runs/"
		done
	fi
fi

# the runs made on a machine with a GPU, kept in the tree (this run's, when
# it had one)
gpu=$top_srcdir/evaluation/gpu-runs
cp "$gpu/machine.md" "$parts/gpu-machine"
sh "$top_srcdir/evaluation/perf.sh" fig6-table "$gpu" > "$parts/gpu-fig6"
sh "$top_srcdir/evaluation/perf.sh" fig5-table "$gpu" > "$parts/gpu-fig5"
choices "$gpu/dynamic-choices.txt" > "$parts/gpu-choices"

awk -v dir="$parts" '
	/^<!-- [a-zA-Z0-9-]+ -->$/ {
		f = dir "/" $2
		if ((getline line < f) > 0) {
			print line
			while ((getline line < f) > 0)
				print line
			close(f)
			next
		}
	}
	{ print }' "$top_srcdir/evaluation/evaluation.md.in" > "$doc.tmp"
mv "$doc.tmp" "$doc"
echo "evaluate.sh: wrote $doc"
