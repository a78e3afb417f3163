#!/bin/sh
# make evaluation: reproduce the paper's section V with what is written so
# far and write doc/evaluation.md.  Table I needs cloc, installed here on
# demand (Debian package cloc).
set -eu
: "${top_srcdir:?}"
if ! command -v cloc > /dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		apt-get install -y cloc > /dev/null
	else
		echo "evaluate.sh: install cloc (apt-get install cloc) first" >&2
		exit 1
	fi
fi
doc=$top_srcdir/doc/evaluation.md
table=$(sh "$top_srcdir/evaluation/loc.sh" "$top_srcdir")
{
	sed -n '1,/^<!-- table I -->$/p' "$top_srcdir/evaluation/evaluation.md.in"
	echo "$table"
	sed -n '/^<!-- table I -->$/,$p' "$top_srcdir/evaluation/evaluation.md.in" | sed 1d
} > "$doc.tmp"
mv "$doc.tmp" "$doc"
echo "evaluate.sh: wrote $doc"
