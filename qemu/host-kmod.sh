# host-kmod.sh - sourced by qemu/check.sh: the host's checks of the module
# recording a board sent back (mod.data: 500 ms in tests/tools/kmod's
# tbmod, with the board's /proc/kallsyms beside it). A board's kernel
# addresses mean nothing to the host's kernel: perf 6.1 resolves them from
# the board's kallsyms given with --kallsyms, the module's code as "[tbmod]";
# trace-report must print what perf script prints, and name the module's
# functions.
# SPDX-License-Identifier: GPL-2.0-only

kmod_host_checks() {
	m=$files/mod.data k=$files/kallsyms.txt
	if [ ! -f "$m" ] || [ ! -f "$k" ]; then
		fail "the module recording reached the host" "no mod.data or kallsyms.txt in $files"
		return
	fi
	grep -q ' tbmod_inner	\[tbmod\]$' "$k" &&
		pass "the board's kallsyms lists the module's functions ([tbmod])" ||
		fail "the board's kallsyms" "$(grep -m2 tbmod "$k")"
	"$tracebox" trace-report -i "$m" --kallsyms "$k" -F comm,ip,sym,dso >"$out/mod-ours.txt" \
		2>"$out/mod-ours.err"
	n=$(grep -c ' tbmod_\(inner\|outer\) (\[tbmod\])$' "$out/mod-ours.txt")
	[ "$n" -gt 2 ] && pass "the module's samples resolve to its functions in [tbmod] ($n)" ||
		fail "the module's samples" "$n; $(grep -m3 -v kallsyms "$out/mod-ours.txt" | tr '\n' '|')"
	# each module sample's symbol is the board's kallsyms' own: the module's
	# symbol at or below the address (the assembler's $x marks aside)
	bad=$(awk -v k="$k" 'BEGIN { while ((getline l < k) > 0) { split(l, f, /[ \t]+/)
			if (l ~ /\[tbmod\]$/ && f[3] !~ /^\$/) { a[++n] = f[1]; s[n] = f[3] } } }
		/ \(\[tbmod\]\)$/ { best = ""; ba = ""
			for (i = 1; i <= n; i++) if (a[i] <= $2 && (ba == "" || a[i] >= ba)) { ba = a[i]; best = s[i] }
			if ($3 != best) print $2 " " $3 " (kallsyms: " best ")" }' "$out/mod-ours.txt")
	[ -z "$bad" ] && pass "every module sample's symbol is the board's kallsyms' own" ||
		fail "module samples against the board's kallsyms" "$(echo "$bad" | head -3)"
	# perf 6.1 names a module's samples only when the file's first kernel
	# sample is not the module's (else it tries the module's file first, marks
	# it loaded, and drops its kallsyms symbols): compared with perf on the
	# rest, and on the module's too where perf names them
	if command -v perf >/dev/null; then
		perf script -i "$m" --kallsyms "$k" -F comm,ip,sym,dso >"$out/mod-perf.txt" 2>"$out/mod-perf.err"
		if grep -q ' \[unknown\] (\[tbmod\])$' "$out/mod-perf.txt"; then
			grep -v ' (\[tbmod\])$' "$out/mod-perf.txt" >"$out/mod-perf.cmp"
			grep -v ' (\[tbmod\])$' "$out/mod-ours.txt" >"$out/mod-ours.cmp"
			what="the kernel's samples (perf left the module's unknown)"
		else
			cp "$out/mod-perf.txt" "$out/mod-perf.cmp"
			cp "$out/mod-ours.txt" "$out/mod-ours.cmp"
			what="every sample"
		fi
		cmp -s "$out/mod-perf.cmp" "$out/mod-ours.cmp" &&
			pass "the module recording with --kallsyms: $what as perf script prints them" ||
			fail "the module recording: perf script and trace-report differ" \
				"$(diff "$out/mod-perf.cmp" "$out/mod-ours.cmp" | head -5)"
	else
		echo "@@ SKIP: $host: perf script on the module recording: perf is not installed (Debian: linux-perf)"
	fi
}
