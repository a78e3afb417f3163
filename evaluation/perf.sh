#!/bin/sh
# The timed experiments of make evaluation (Figs. 5, 6 and 7 of the paper).
# Each writes its measurements to OUT/FIG.dat and prints its Markdown table.
#
#   perf.sh fig6 OUT    per application, each static choice (the program
#                       composed for one platform: CPU, OPENMP, OPENCL, CUDA)
#                       against dynamic selection (composed for all, dmda),
#                       averaged over the application's sizes
#   perf.sh fig7 OUT    the ODE solver composed against its direct version
#   perf.sh fig5 OUT    SpMV split across CPU and OpenCL against OpenCL only
#                       (and across CPU and CUDA against CUDA only, with a GPU)
#   perf.sh FIG-table OUT   the table again from OUT/FIG.dat, without running
#   perf.sh fig6-choices OUT    what dynamic selection ran at each size
#
# Every run's result is checked as make check does (a wrong run stops the
# experiment).  Times are what the programs print (their timed region: the
# component calls, transfers included), the median of EVAL_REPS runs (15;
# with 5, a run of this machine's noise moved a ratio by 5 % either way; on a
# machine where one run in three of a cache-heavy kernel is 1.4-2 times slower,
# 9 still let a median fall on the slow side)
# after the runs that train the performance models (EVAL_TRAIN per size, 6:
# every variant, and every OpenMP team size, is run 4 times in a row at each
# data size, a warm-up and 3 samples, before dmda stops exploring it; on 16
# cores SGEMM has 9 such choices and makes 8 calls a run); the runs of the
# different choices are interleaved, so that a change in the machine's
# load touches them alike.  Fig. 7 runs EVAL_REPS_FIG7 (9) times each.  EVAL_QUICK=1 runs one small size each, once
# (to try the script out); EVAL_APPS="hotspot nw" limits Fig. 6 to these.
set -eu
: "${top_srcdir:?}" "${top_builddir:?}" "${COMPOSE:?}"
fig=$1 out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
reps=${EVAL_REPS:-15}
train=${EVAL_TRAIN:-6}
reps7=${EVAL_REPS_FIG7:-9}
quick=${EVAL_QUICK:-0}
[ "$quick" = 1 ] && reps=1 train=2 reps7=1
ev=$top_srcdir/evaluation
export PEPPHER_SCHED=dmda
# Every program is compiled with its functions aligned to 64 bytes: else a
# kernel's speed depends on where its inner loop lands, which moves with
# what else the program links (SGEMM's blocked kernel at 128, one object
# file: 270 us a call in the program composed for the CPU, 410 us in the
# one composed for every platform).
export CFLAGS="${CFLAGS:-} -falign-functions=64"

# Whether CUDA variants can run: a CUDA build and a device nvidia-smi sees.
have_gpu() {
	[ -n "$(pkg-config --variable=cuda_libs peppher 2> /dev/null)" ] &&
		nvidia-smi -L > /dev/null 2>&1
}

# compose_app APP DIR [COMPOSE OPTIONS...]: compose and build evaluation APP
# into DIR (the repository is searched for spmv and sgemm); MAIN_XML names
# another main descriptor of APP than main.xml.
compose_app() {
	app=$1 dir=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	"$COMPOSE" -R "$top_srcdir/repository" "$@" "$ev/$app/${MAIN_XML:-main.xml}" -o "$dir" \
		> "$dir/compose.log" 2>&1 || { cat "$dir/compose.log" >&2; return 1; }
	make -s -C "$dir" > "$dir/make.log" 2>&1 || { cat "$dir/make.log" >&2; return 1; }
}

# run PROGRAM NAME HOME SIZE: run PROGRAM at SIZE (commas separate its
# arguments: "128,8"), models in HOME; prints the seconds it reports (the
# runtime's statistics, printed at shutdown, stay in last.log).
run() {
	prog=$1 name=$2 home=$3
	# shellcheck disable=SC2046
	PEPPHER_HOME=$home PEPPHER_STATS=1 nice "$prog" $(echo "$4" | tr , ' ') > "$out/last.log" 2>&1 || true
	line=$(grep "^$name: size [0-9]*: .* s: correct" "$out/last.log") || {
		cat "$out/last.log" >&2
		echo "perf.sh: $prog $4: no correct result" >&2
		return 1
	}
	echo "$line" | awk '{ print $4 }'
}

median() { # numbers on stdin
	sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The applications of Fig. 6 and their sizes (see each main.c for what the
# size counts): small to large, so that the best static choice may change.
fig6_sizes() {
	if [ "$quick" = 1 ]; then
		case $1 in ode) echo 32,0.5 ;; *) echo quick ;; esac
		return
	fi
	case $1 in
	spmv) echo 5000 40000 160000 ;;
	sgemm) echo 64 128 256 ;;
	bfs) echo 20000 100000 400000 ;;
	cfd) echo 32 96 192 ;;
	hotspot) echo 128 512 1024 ;;
	lud) echo 128 384 768 ;;
	nw) echo 256 1024 2048 ;;
	particlefilter) echo 1000 4000 10000 ;;
	pathfinder) echo 5000 50000 200000 ;;
	ode) echo 32,2 64,2 96,2 ;;
	esac
}

fig6() {
	apps=${EVAL_APPS:-spmv sgemm bfs cfd hotspot lud nw particlefilter pathfinder ode}
	kinds="CPU OPENMP OPENCL"
	have_gpu && kinds="$kinds CUDA"
	: > "$out/fig6.dat"
	: > "$out/fig6.raw"
	for app in $apps; do
		compose_app "$app" "$out/$app/dynamic"
		for k in $kinds; do
			compose_app "$app" "$out/$app/$k" --platforms="$k"
		done
		sizes=$(fig6_sizes "$app")
		# train: the dynamic choice sees every variant calibrated at every
		# size; the static ones warm up (kernels built, caches filled)
		for s in $sizes; do
			for _ in $(seq "$train"); do
				run "$out/$app/dynamic/$app" "$app" "$out/$app/dynamic/home" "$s" > /dev/null
			done
			for k in $kinds; do
				run "$out/$app/$k/$app" "$app" "$out/$app/$k/home" "$s" > /dev/null
			done
		done
		for _ in $(seq "$reps"); do
			for s in $sizes; do
				for k in dynamic $kinds; do
					t=$(run "$out/$app/$k/$app" "$app" "$out/$app/$k/home" "$s")
					echo "$app $k $s $t" >> "$out/fig6.raw"
					# what each program ran, and where (its last run;
					# fig6-choices prints dynamic selection's)
					cp "$out/last.log" "$out/$app/$k/stats-$s.log"
				done
			done
		done
		for s in $sizes; do
			for k in dynamic $kinds; do
				t=$(awk -v a="$app" -v k="$k" -v s="$s" '$1 == a && $2 == k && $3 == s { print $4 }' \
					"$out/fig6.raw" | median)
				echo "$app $k $s $t" >> "$out/fig6.dat"
			done
		done
		echo "perf.sh: fig6: $app done" >&2
	done
	fig6_choices > "$out/dynamic-choices.txt"
	fig6_table
}

# What dynamic selection ran at each size, from the statistics of its last
# timed run (APP/dynamic/stats-SIZE.log): per variant, the tasks it ran and
# where (a CPU worker, the application thread, CUDA, OpenCL), and the team
# of a fork-join one.
fig6_choices() {
	for app in $(cut -d' ' -f1 "$out/fig6.dat" | uniq); do
		for s in $(awk -v a="$app" '$1 == a && $2 == "dynamic" { print $3 }' "$out/fig6.dat"); do
			f=$out/$app/dynamic/stats-$s.log
			[ -f "$f" ] || continue
			awk -v a="$app" -v s="$s" '
				/^worker / { w = $3; gsub(/[(,):]/, "", w) }
				/^application threads/ { w = "application thread" }
				/^    [^ ]+\/[^ ]+: [0-9]+ tasks/ {
					v = $1; sub(/:$/, "", v); sub(/.*\//, "", v)
					team = $0 ~ /team of/ ? ", team of " $NF : ""
					out = out (out == "" ? "" : "; ") v " x" $2 " on " w team
				}
				END { print a " " s ": " out }' "$f"
		done
	done
}

# Per application of fig6.dat, "APP Q1 MEDIAN Q3": dynamic against the best
# static choice (the lowest mean over sizes of fig6.dat) run by run, each
# time summed over the sizes.  The runs of one repetition ran one after the
# other (fig6.raw keeps their order), so a slow phase of the machine slows
# both sides of a ratio; the quartiles show how far the machine's noise
# moves it.
fig6_paired() {
	[ -f "$out/fig6.raw" ] || return 0
	for app in $(cut -d' ' -f1 "$out/fig6.dat" | uniq); do
		best=$(awk -v a="$app" '$1 == a && $2 != "dynamic" { s[$2] += $4 }
			END { for (k in s) print s[k], k }' "$out/fig6.dat" | sort -g | head -n 1 | cut -d' ' -f2)
		awk -v a="$app" -v b="$best" '
			$1 == a && ($2 == "dynamic" || $2 == b) {
				r = ++rep[$2, $3]
				t[$2, r] += $4
				if (r > nr) nr = r
			}
			END { for (r = 1; r <= nr; r++) if (t[b, r] > 0) print t["dynamic", r] / t[b, r] }' \
			"$out/fig6.raw" | sort -g | awk -v a="$app" '
			{ v[NR] = $1 }
			END {
				if (NR == 0) exit
				q = int((NR + 3) / 4)
				m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				print a, v[q], m, v[NR + 1 - q]
			}'
	done
}

# The table of Fig. 6 from fig6.dat: mean over sizes per choice, and the
# dynamic choice against the best static choice overall and per size, with
# the spread of that ratio over the runs (fig6_paired).  A miss whose lower
# quartile is within the target says so: the machine's noise alone can
# make it.
fig6_table() {
	grep -q '^[^ ]* CUDA ' "$out/fig6.dat" && gpu=1 || gpu=0
	echo "| application | sizes | CPU (s) | OpenMP (s) | OpenCL (s) | CUDA (s) | dynamic (s) | dynamic / best static | dynamic / best static per size | run by run: median [quartiles] | target (<= 1.05) |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	fig6_paired | sed 's/^/paired /' | awk -v gpu="$gpu" '
		$1 == "paired" { q1[$2] = $3; qm[$2] = $4; q3[$2] = $5; next }
		{
			if (!($1 in seen)) { seen[$1] = 1; order[++napps] = $1 }
			sum[$1, $2] += $4; n[$1, $2]++
			if (!(($1, $3) in sizeseen)) { sizeseen[$1, $3] = 1; sizes[$1] = sizes[$1] (sizes[$1] == "" ? "" : ", ") $3 }
			if ($2 == "dynamic") dyn[$1, $3] = $4
			else if (!(($1, $3) in best) || $4 < best[$1, $3]) best[$1, $3] = $4
			persize[$1] = persize[$1] " " $3
		}
		END {
			for (i = 1; i <= napps; i++) {
				a = order[i]
				bs = -1
				split("CPU OPENMP OPENCL CUDA", ks, " ")
				row = ""
				for (j = 1; j <= 4; j++) {
					k = ks[j]
					if (n[a, k]) {
						m = sum[a, k] / n[a, k]
						row = row sprintf(" %.4f |", m)
						if (bs < 0 || m < bs) bs = m
					} else
						row = row (k == "CUDA" && !gpu ? " not run (no GPU) |" : " - |")
				}
				d = sum[a, "dynamic"] / n[a, "dynamic"]
				# the best static choice made per size: what dynamic selection can reach
				bsum = 0; dsum = 0
				ns = split(sizes[a], ss, ", ")
				for (j = 1; j <= ns; j++) { bsum += best[a, ss[j]]; dsum += dyn[a, ss[j]] }
				name = a == "ode" ? "ODE solver" : a == "spmv" ? "SpMV" : a == "sgemm" ? "SGEMM" : a
				spread = a in qm ? sprintf("%.2f [%.2f, %.2f]", qm[a], q1[a], q3[a]) : "-"
				verdict = d <= 1.05 * bs ? "met" : a in q1 && q1[a] <= 1.05 ? "missed, within the spread" : "missed"
				printf "| %s | %s |%s %.4f | %.2f | %.2f | %s | %s |\n", name, sizes[a], row, d, d / bs,
				       dsum / bsum, spread, verdict
			}
		}' - "$out/fig6.dat"
}

# Fig. 7: the ODE solver composed against its direct version, the same
# variants, at the benchmark size.
fig7_size() {
	[ "$quick" = 1 ] && echo 32,0.5 || echo 128,8
}

fig7() {
	s=$(fig7_size)
	compose_app ode "$out/ode-composed"
	sh "$ev/direct/build.sh" ode "$out/ode-direct" > "$out/ode-direct.log" 2>&1 ||
		{ cat "$out/ode-direct.log" >&2; return 1; }
	# trained as Fig. 6's programs are: the solver's once-a-run calls
	# (its initialisation, sum, norms) calibrate one run at a time, and a
	# timed run that still explores one on the OpenCL device pays the
	# program's build (25 ms from PoCL's cache).  Both programs keep their
	# models in one folder (their codelets and variants have the same
	# names), as two StarPU programs share ~/.starpu: trained apart, each
	# learnt its own choices (ode_rhs on two workers at once, or on a team
	# of 2), and the comparison measured which, 10 % either way, not the
	# entry wrappers
	home=$out/ode-models
	rm -rf "$home"
	for _ in $(seq "$train"); do
		for v in composed direct; do
			run "$out/ode-$v/ode" ode "$home" "$s" > /dev/null
		done
	done
	: > "$out/fig7.raw"
	for _ in $(seq "$reps7"); do
		for v in composed direct; do
			t=$(run "$out/ode-$v/ode" ode "$home" "$s")
			steps=$(grep "^ode: [0-9]* steps" "$out/last.log" | awk '{ print $2, $4, $6 }')
			echo "$v $t $steps" >> "$out/fig7.raw"
		done
	done
	: > "$out/fig7.dat"
	for v in composed direct; do
		t=$(awk -v v="$v" '$1 == v { print $2 }' "$out/fig7.raw" | median)
		m=$(awk -v v="$v" '$1 == v { print $2 }' "$out/fig7.raw" | sort -g | head -1)
		echo "$v $t $m $(awk -v v="$v" '$1 == v { c = $5 } END { print c }' "$out/fig7.raw")" >> "$out/fig7.dat"
	done
	fig7_table
}

# The table of Fig. 7 from fig7.dat (VERSION MEDIAN MIN CALLS): the fastest
# run of each is the one the machine's other work disturbed least, which
# shows an overhead of a few microseconds per call best.
fig7_table() {
	echo "| size (grid, end time) | composed: median, fastest (s) | direct: median, fastest (s) | overhead, fastest runs | overhead, medians | component calls per run | runs each | target (<= 3 %) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---|"
	awk -v s="$(fig7_size | tr , ' ')" -v r="$(awk '$1 == "composed"' "$out/fig7.raw" | wc -l)" '
		{ t[$1] = $2; m[$1] = $3; calls = $4 }
		END {
			o = 100 * (m["composed"] - m["direct"]) / m["direct"]
			om = 100 * (t["composed"] - t["direct"]) / t["direct"]
			printf "| %s | %.3f, %.3f | %.3f, %.3f | %+.1f %% | %+.1f %% | %s | %d | %s |\n", s,
			       t["composed"], m["composed"], t["direct"], m["direct"], o, om, calls, r,
			       o <= 3 ? "met" : "missed"
		}' "$out/fig7.dat"
}

# Fig. 5: SpMV (ELLPACK, evaluation/spmv_ell) with each call split across
# the CPU workers and the OpenCL device by the models' throughputs, against
# the device alone and the CPU alone (OpenMP), calls whole; matrices as
# ROWS,SLOTS per row.  Where a GPU can run the CUDA variants, the same with
# the CUDA device in place of the OpenCL one (hybrid_cuda and CUDA).
fig5_sizes() {
	[ "$quick" = 1 ] && echo 20000,8 || echo 100000,8 200000,16 400000,16 150000,64
}

fig5() {
	kinds="hybrid OPENCL OPENMP"
	compose_app spmv_ell "$out/spmv_ell/hybrid" --platforms=CPU,OPENMP,OPENCL
	MAIN_XML=main-device.xml compose_app spmv_ell "$out/spmv_ell/OPENCL" --platforms=OPENCL
	MAIN_XML=main-device.xml compose_app spmv_ell "$out/spmv_ell/OPENMP" --platforms=OPENMP
	if have_gpu; then
		kinds="$kinds hybrid_cuda CUDA"
		compose_app spmv_ell "$out/spmv_ell/hybrid_cuda" --platforms=CPU,OPENMP,CUDA
		MAIN_XML=main-device.xml compose_app spmv_ell "$out/spmv_ell/CUDA" --platforms=CUDA
	fi
	: > "$out/fig5.raw"
	for s in $(fig5_sizes); do
		for k in $kinds; do
			for _ in 1 2; do
				run "$out/spmv_ell/$k/spmv_ell" spmv_ell "$out/spmv_ell/$k/home" "$s" > /dev/null
			done
		done
		for _ in $(seq "$reps"); do
			for k in $kinds; do
				t=$(run "$out/spmv_ell/$k/spmv_ell" spmv_ell "$out/spmv_ell/$k/home" "$s")
				# bytes moved to and from the device in the run (its 10 calls)
				b=$(awk '$1 == "transfers:" { gsub(/[(]/, "", $5); gsub(/[(]/, "", $14); print $5 + $14 }' \
					"$out/last.log")
				echo "$s $k $t ${b:-0}" >> "$out/fig5.raw"
				# where the blocks ran, and what moved (its last run)
				cp "$out/last.log" "$out/spmv_ell/$k/stats-$s.log"
			done
		done
	done
	: > "$out/fig5.dat"
	for s in $(fig5_sizes); do
		for k in $kinds; do
			t=$(awk -v s="$s" -v k="$k" '$1 == s && $2 == k { print $3 }' "$out/fig5.raw" | median)
			b=$(awk -v s="$s" -v k="$k" '$1 == s && $2 == k { b = $4 } END { print b }' "$out/fig5.raw")
			echo "$s $k $t $b" >> "$out/fig5.dat"
		done
	done
	fig5_table
}

# The table of Fig. 5 from fig5.dat; the CUDA columns say "not run" where
# it holds no CUDA runs.
fig5_table() {
	echo "| matrix (rows, slots per row) | OpenCL only (s) | hybrid CPU + OpenCL (s) | hybrid speed-up | CPU only, OpenMP (s) | MB moved, OpenCL only | MB moved, hybrid | CUDA only (s) | hybrid CPU + CUDA (s) | hybrid speed-up, CUDA |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk '
		{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } t[$1, $2] = $3; b[$1, $2] = $4 }
		END {
			for (i = 1; i <= n; i++) {
				s = order[i]
				m = s; sub(/,/, ", ", m)
				cuda = "not run: no GPU | not run | - |"
				if ((s, "CUDA") in t)
					cuda = sprintf("%.4f | %.4f | %.2f |", t[s, "CUDA"], t[s, "hybrid_cuda"],
						       t[s, "CUDA"] / t[s, "hybrid_cuda"])
				printf "| %s | %.4f | %.4f | %.2f | %.4f | %.0f | %.0f | %s\n", m, t[s, "OPENCL"],
				       t[s, "hybrid"], t[s, "OPENCL"] / t[s, "hybrid"], t[s, "OPENMP"],
				       b[s, "OPENCL"] / 1e6, b[s, "hybrid"] / 1e6, cuda
			}
		}' "$out/fig5.dat"
}

case $fig in
fig5) fig5 ;;
fig6) fig6 ;;
fig7) fig7 ;;
fig5-table) fig5_table ;;
fig6-table) fig6_table ;;
fig6-choices) fig6_choices ;;
fig7-table) fig7_table ;;
*) echo "usage: perf.sh fig5|fig6|fig7[-table] OUT" >&2; exit 2 ;;
esac
