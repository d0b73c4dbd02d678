# host-arm64.sh - sourced by qemu/check.sh -a arm64: what the arm64 board
# needs before it boots (arm64_what, arm64_tools), and the host's checks of the
# recordings its tiny recorder sent back (arm64_host_checks): the host build
# reports them with the arm64 names of the recording's own map, perf reads
# them, the built-in aarch64 table stands in for a missing map, an arch
# without a table gives numbers, and the map agrees with the kernel's
# asm-generic/unistd.h. The parts the boards share are qemu/host-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only

arm64_what="the arm64 board" arm64_busybox=arm64
arm64_tools="aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
aarch64-linux-musl-gcc musl-dev:arm64 (after dpkg --add-architecture arm64)
qemu-system-aarch64 qemu-system-arm"

# the board's --call-graph dwarf profile, unwound here: aarch64 registers
# and CFI on an x86 host (perf 6.1's libunwind here is x86's only), the
# program's symbols from its unstripped copy under --symfs
arm64_dwarf_checks() {
	board_symfs tiny-aarch64
	board_dwarf_checks || return
	# the lines of its frames from the aarch64 DWARF, as eu-addr2line says
	# (the static binary's text is loaded at 0x400000 from offset 0)
	"$tracebox" trace-report --symfs "$out/symfs" -i "$dw" -F ip,sym,srcline >"$out/dw-src.txt" 2>&1
	a=$(awk '$2 == "leaf" { print $1; exit }' "$out/dw-src.txt")
	ours=$(awk -v a="$a" '$1 == a { getline; print $1; exit }' "$out/dw-src.txt")
	want=$(eu-addr2line -s -e "$build/tiny-aarch64/srcprog" "0x$(printf '%x' $((0x400000 + 0x${a:-0})))" 2>&1 |
		cut -d: -f1,2)
	[ -n "$a" ] && [ "$ours" = "$want" ] && pass "the board's frames carry the DWARF's lines (leaf: $ours)" ||
		fail "the board's frames' lines" "leaf at '$a': ours '$ours', eu-addr2line '$want'"
}

arm64_host_checks() {
	board_recordings || return
	board_tiny_size tiny-aarch64 aarch64-linux-gnu-strip aarch64
	# an aarch64 recording; arm64 names from its map
	board_header_checks aarch64 arm64
	board_report_checks arm64 173 openat

	# perf reads it: getppid under its arm64 number, and our default print is its
	if command -v perf >/dev/null; then
		perf script -i "$sc" >"$out/perf-script.txt" 2>"$out/perf-script.err" &&
			pass "perf script reads the arm64 recording" ||
			fail "perf script reads the arm64 recording" "$(tail -3 "$out/perf-script.err")"
		n=$(awk '$1 == "workload" && / NR 173 /' "$out/perf-script.txt" | wc -l)
		[ "$n" = "$N" ] && pass "perf script: the workload's NR 173 (getppid on arm64) $N times" ||
			fail "perf script: the workload's NR 173 $N times" "got $n"
		"$tracebox" trace-report -i "$sc" >"$out/tr-script.txt" 2>"$out/tr-script.err"
		cmp -s "$out/perf-script.txt" "$out/tr-script.txt" &&
			pass "trace-report prints the arm64 recording as perf script does" ||
			fail "trace-report prints the arm64 recording as perf script does" \
				"$(diff "$out/perf-script.txt" "$out/tr-script.txt" | head -5)"
	else
		echo "@@ SKIP: arm64: host: perf script on the arm64 recording: perf is not installed (Debian: linux-perf)"
	fi

	arm64_dwarf_checks

	# without the map (a real board's unpatched kernel): the built-in aarch64 table
	board_nomap_check aarch64
	# an arch without a table: numbers, never another arch's names
	python3 "$top/tests/tools/pdfeat.py" "$out/nomap.data" "$out/riscv.data" --arch riscv64 &&
		"$tracebox" trace-report -i "$out/riscv.data" syscall-counts >"$out/riscv-report.txt" 2>&1
	n=$(board_count "$out/riscv-report.txt" 173)
	named=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ && $1 !~ /^[0-9]+$/ && $1 != "event"' "$out/riscv-report.txt")
	[ "$n" = "$N" ] && [ -z "$named" ] && pass "arch riscv64 (no table): 173 $N, no name printed" ||
		fail "arch riscv64 (no table): numbers only" "173: '$n'; named: $(echo "$named" | head -3)"

	# the kernel's map against the header it was built from: each line
	# "NR NAME" is a __SYSCALL(NR, sys_NAME) of asm-generic/unistd.h, or
	# arm64's own version of it (sys_arm64_personality for sys_personality)
	src=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/linux-source-6.1
	"$top/scripts/tools/gen-syscalls.sh" --entries aarch64 "$src" >"$out/unistd-entries.txt" 2>&1
	bad=$(awk 'NR == FNR { e = $2; sub(/^sys_/, "", e); t[$1] = e; next }
		!($1 in t) || (t[$1] != $2 && "arm64_" t[$1] != $2) { print $0 " (unistd.h: " t[$1] ")" }' \
		"$out/unistd-entries.txt" "$map")
	[ -s "$out/unistd-entries.txt" ] && [ -z "$bad" ] &&
		pass "syscall_map agrees with asm-generic/unistd.h ($(wc -l <"$map") syscalls)" ||
		fail "syscall_map disagrees with asm-generic/unistd.h" "$(echo "$bad" | head -5)"
}
