#!/bin/sh
# Table I: the lines of code (cloc's "code") the programmer writes for each
# evaluation application with compose against its direct version on
# libpeppher's task API.  With compose: main.c and the variants' sources
# and the headers they share; direct: the same, plus evaluation/direct/APP.
# Neither counts what both use unchanged: the input generator and
# sequential reference (APP_seq.*), evaluation/common/eval.h, and, for spmv
# and sgemm, the repository's component (its variants and the
# repository/common headers they include), which both versions call as it
# is.  Two last rows show spmv and sgemm again with the repository's
# sources counted on both sides, for comparison.  Descriptors are counted apart (the paper
# does not count them): the programmer's own, for spmv and sgemm main.xml
# only.  Prints a Markdown table.
#   loc.sh [SRCDIR]
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
ev=$top/evaluation
command -v cloc > /dev/null || { echo "loc.sh: cloc is needed (apt-get install cloc)" >&2; exit 1; }

code() { # files...: cloc's code lines, all languages summed
	cloc --quiet --csv "$@" | awk -F, '$2 == "SUM" { s = $5 } END { print s + 0 }'
}
tool_files() { # app [with-repository]
	{
		find "$ev/$1" \( -name '*.c' -o -name '*.cu' -o -name '*.h' \) ! -name "$1_seq.*"
		[ "${2:-}" = with-repository ] && repo_files "$1"
	} | sort
}
repo_files() { # app: spmv and sgemm's variants, from the repository, and the headers they share
	find "$top/repository/$1" \( -name '*.c' -o -name '*.cu' -o -name '*.cl' \)
	grep -rho '"\.\./\.\./common/[a-z_]*\.h"' "$top/repository/$1" | tr -d '"' | sort -u |
		sed "s|^\.\./\.\./|$top/repository/|"
}
xml_files() { # app [with-repository]: its descriptors (and the repository component's)
	{
		find "$ev/$1" -name '*.xml'
		[ "${2:-}" = with-repository ] && find "$top/repository/$1.xml" "$top/repository/$1" -name '*.xml'
	} | sort
}
row() { # name, paper tool, paper direct, paper %, tool files..., --, direct-only files..., --, xml files...
	name=$1 ptool=$2 pdirect=$3 ppct=$4
	shift 4
	tool= direct= xml= part=tool
	for f; do
		case $f in --) [ $part = tool ] && part=direct || part=xml; continue ;; esac
		case $part in tool) tool="$tool $f" ;; direct) direct="$direct $f" ;; xml) xml="$xml $f" ;; esac
	done
	t=$(code $tool)
	d=$(code $tool $direct)
	x=$(code $xml)
	awk -v judge="${judge:-1}" -v n="$name" -v t="$t" -v d="$d" -v x="$x" -v pt="$ptool" -v pd="$pdirect" -v pp="$ppct" 'BEGIN {
		pct = 100 * (d - t) / t
		printf "| %s | %d | %d | %d, %.0f %% | %d | %s | %s | %s %% | %s |\n", n, t, d, d - t, pct, x, pt, pd, pp,
		       (judge == 0 ? "-" : pct >= pp ? "met" : "missed")
	}'
}

echo "| application | tool (LOC) | direct (LOC) | difference (LOC, %) | descriptors (XML lines) | paper: tool | paper: direct | paper: % | target |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for spec in "spmv 293 376 29" "sgemm 140 229 63" "bfs 256 364 42" "cfd 200 323 62" "hotspot 327 447 37" \
	    "lud 510 586 15" "nw 359 449 25" "particlefilter 652 748 15" "pathfinder 186 275 48" "ode 800 1252 57"; do
	set -- $spec
	[ -d "$ev/$1" ] && [ -d "$ev/direct/$1" ] || { echo "| $1 | not written | | | | $2 | $3 | $4 % | missed |"; continue; }
	label=$1
	case $1 in ode) label="ODE solver" ;; spmv) label=SpMV ;; sgemm) label=SGEMM ;; esac
	# shellcheck disable=SC2046
	row "$label" "$2" "$3" "$4" $(tool_files "$1") -- $(find "$ev/direct/$1" -type f | sort) -- \
	    $(xml_files "$1")
done
# the two repository applications again, the component's sources counted on
# both sides (as if the programmer had written them): for comparison only
for spec in "spmv 293 376 29 SpMV" "sgemm 140 229 63 SGEMM"; do
	set -- $spec
	[ -d "$ev/$1" ] && [ -d "$ev/direct/$1" ] || continue
	# shellcheck disable=SC2046
	judge=0 row "$5, the repository's sources counted too" "$2" "$3" "$4" $(tool_files "$1" with-repository) -- \
	    $(find "$ev/direct/$1" -type f | sort) -- $(xml_files "$1" with-repository)
done
