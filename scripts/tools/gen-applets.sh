#!/bin/sh
# gen-applets.sh LIST OUT.c - the sorted applet table from applets/applets.list
# (BusyBox applets/applet_tables.c does the same at build time): fails on a
# duplicate name, a line without a summary, a name or entry that is not a
# plain word, a quote or backslash in a summary.
# SPDX-License-Identifier: GPL-2.0-only
set -e
list=$1 out=$2
LC_ALL=C
export LC_ALL
grep -v '^[[:space:]]*#' "$list" | grep -v '^[[:space:]]*$' | sort -k1,1 | awk -v list="$list" '
	BEGIN { n = 0 }
	function die(msg) { printf "gen-applets: %s: %s\n", list, msg >"/dev/stderr"; bad = 1; exit 1 }
	NF < 3 { die("\"" $0 "\": want NAME ENTRY SUMMARY") }
	$1 !~ /^[a-z][a-z0-9_-]*$/ { die("bad applet name \"" $1 "\"") }
	$2 !~ /^[A-Za-z_][A-Za-z0-9_]*$/ { die("bad entry function \"" $2 "\" for " $1) }
	$1 == prev { die("applet \"" $1 "\" listed twice") }
	{
		prev = $1; name[n] = $1; entry[n] = $2
		s = $0; sub(/^[[:space:]]*[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]+/, "", s)
		if (s ~ /["\\]/) die("quote or backslash in the summary of " $1)
		summary[n++] = s
	}
	END {
		if (bad) exit 1
		if (!n) die("no applets")
		print "/* applets_table.c - generated from " list " by scripts/tools/gen-applets.sh:"
		print " * do not edit. Sorted by name, no duplicates (applet_find bisects it). */"
		print "#include \"applets.h\""
		print ""
		for (i = 0; i < n; i++)
			printf "int %s(int argc, char **argv);\n", entry[i]
		print ""
		print "const struct applet applet_table[] = {"
		for (i = 0; i < n; i++)
			printf "\t{ \"%s\", %s, \"%s\" },\n", name[i], entry[i], summary[i]
		print "};"
		printf "const int applet_count = %d;\n", n
	}' >"$out.tmp" || { rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
