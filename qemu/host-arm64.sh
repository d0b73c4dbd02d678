# host-arm64.sh - sourced by qemu/check.sh -a arm64: what the arm64 board
# needs before it boots (arm64_prepare), and the host's checks of the
# recordings its tiny recorder sent back (arm64_host_checks): the host build
# reports them with the arm64 names of the recording's own map, perf reads
# them, the built-in aarch64 table stands in for a missing map, an arch
# without a table gives numbers, and the map agrees with the kernel's
# asm-generic/unistd.h.
# SPDX-License-Identifier: GPL-2.0-only

# arm64_prepare BUILD: 0 when the board is built (make kernel-arm64
# initramfs-arm64), 1 (after a SKIP line) when a package is missing, 2 when
# the build failed
arm64_prepare() {
	why= board_build=$1
	for t in "aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu" \
		"aarch64-linux-musl-gcc musl-dev:arm64 (after dpkg --add-architecture arm64)" \
		"qemu-system-aarch64 qemu-system-arm" "flex flex" "bison bison" "bc bc"; do
		set -- $t
		command -v $1 >/dev/null && continue
		c=$1; shift
		why="${why:+$why; }$c is not installed (Debian: $*)"
	done
	[ -r "${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}" ] ||
		why="${why:+$why; }no kernel source (Debian: linux-source-6.1)"
	if [ -z "$why" ] && ! "$top/initramfs/busybox-arm64.sh" >"${TMPDIR:-/tmp}/busybox-arm64.$$" 2>&1; then
		why="busybox-static:arm64 could not be fetched: $(tail -1 "${TMPDIR:-/tmp}/busybox-arm64.$$")"
	fi
	rm -f "${TMPDIR:-/tmp}/busybox-arm64.$$"
	if [ -n "$why" ]; then
		echo "@@ SKIP: arm64: the arm64 board: $why"
		echo "qemu-check arm64: skipped: $why"
		return 1
	fi
	make -C "$top" --no-print-directory BUILD="$board_build" kernel-arm64 initramfs-arm64 && return 0
	echo "@@ FAIL: arm64: build the arm64 board (make kernel-arm64 initramfs-arm64)"
	echo "qemu-check arm64: 0 passed, 1 failed, 0 skipped"
	return 2
}

# the count printed after NAME in a report's "NAME  COUNT" lines
arm64_count() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# the board's --call-graph dwarf profile, unwound here: aarch64 registers
# and CFI on an x86 host (perf 6.1's libunwind here is x86's only), the
# program's symbols from its unstripped copy under --symfs
arm64_dwarf_checks() {
	dw=$files/dw.data
	if [ ! -f "$dw" ]; then
		fail "the board's dwarf profile reached the host" "no dw.data"
		return
	fi
	mkdir -p "$out/symfs/usr/bin"
	cp "$build/tiny-aarch64/srcprog" "$out/symfs/usr/bin/srcprog"
	"$tracebox" trace-report --symfs "$out/symfs" -i "$dw" -F comm,ip,sym >"$out/dw.txt" \
		2>"$out/dw.err"
	# the stacks of samples in leaf and lib_work: their callers as the
	# program calls them (main -> middle -> leaf / lib_work)
	n=$(awk '/^srcprog/ { if (s != "") print s; s = "" } /^\t/ { s = s " " $2 }
		END { if (s != "") print s }' "$out/dw.txt" | sed 's/+0x[0-9a-f]*//g' |
		grep -cE '^ (mix )?(leaf|lib_work) middle main')
	[ "$n" -gt 5 ] && pass "the host unwinds the board's dwarf stacks: leaf/lib_work <- middle <- main ($n samples)" ||
		fail "the board's dwarf stacks unwound" "$n samples; $(head -8 "$out/dw.txt" | tr '\n' '|')"
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
	if [ ! -f "$files/sc.data" ] || [ ! -f "$files/syscall_map" ]; then
		fail "the guest's recordings reached the host" "nothing in $files"
		return
	fi
	read -r N M <"$files/workload.txt"
	sc=$files/sc.data map=$files/syscall_map

	# the board's recorder: make tiny's size goal holds for aarch64 too
	goal=204800 tiny=$build/tiny-aarch64/tracebox
	aarch64-linux-gnu-strip -o "$out/tiny.stripped" "$tiny"
	size=$(stat -c %s "$out/tiny.stripped")
	echo "arm64: $tiny is $size bytes stripped (goal: at most $goal)"
	[ "$size" -le $goal ] && pass "the aarch64 tiny recorder is at most $goal bytes stripped ($size)" ||
		fail "the aarch64 tiny recorder's size" "$size bytes stripped, the goal is $goal"

	# the header: an aarch64 recording with the kernel's map in it
	"$tracebox" trace-report --header-only -i "$sc" >"$out/sc-header.txt" 2>&1
	grep -q '^# arch : aarch64$' "$out/sc-header.txt" && pass "the recording's arch is aarch64" ||
		fail "the recording's arch is aarch64" "$(grep '^# arch' "$out/sc-header.txt")"
	grep -q '^# syscall map : [0-9]* entries for aarch64, from kernel (tracefs syscall_map)' "$out/sc-header.txt" &&
		pass "the recording's syscall map came from the arm64 kernel" ||
		fail "the recording's syscall map came from the arm64 kernel" \
			"$(grep 'syscall map' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"

	# syscall-counts: arm64 names from the recording's map
	"$tracebox" trace-report -i "$sc" syscall-counts >"$out/sc-report.txt" 2>"$out/sc-report.err" &&
		pass "trace-report syscall-counts runs" ||
		fail "trace-report syscall-counts runs" "$(tail -3 "$out/sc-report.err")"
	n=$(arm64_count "$out/sc-report.txt" getppid)
	[ "$n" = "$N" ] && pass "syscall-counts: getppid $N (173 in the arm64 map)" ||
		fail "syscall-counts: getppid $N" "got '$n'"
	n=$(arm64_count "$out/sc-report.txt" openat)
	[ -n "$n" ] && [ "$n" -ge "$M" ] && pass "syscall-counts: openat $M or more ($n)" ||
		fail "syscall-counts: openat $M or more" "got '$n'"
	# every name printed is one of the arm64 map's; a number only for what it lacks
	bad=$(awk 'NR == FNR { name[$2]; nr[$1]; next }
		NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "event" && ($1 ~ /^[0-9]+$/ ? ($1 in nr) : !($1 in name))' \
		"$map" "$out/sc-report.txt")
	[ -z "$bad" ] && pass "syscall-counts: every name from the arm64 map, every syscall in it named" ||
		fail "syscall-counts: names not from the arm64 map" "$(echo "$bad" | head -5)"

	# failed-syscalls-by-pid
	"$tracebox" trace-report -i "$files/fs.data" failed-syscalls-by-pid >"$out/fs-report.txt" 2>"$out/fs-report.err"
	got=$(awk '/^workload \[/ { w = 1; next } /^[^ ]/ { w = 0 }
		w && /syscall: openat/ { o = 1; next } w && /syscall:/ { o = 0 }
		w && o && /err = ENOENT/ { print $NF }' "$out/fs-report.txt")
	[ "$got" = "$M" ] && pass "failed-syscalls-by-pid: workload, openat, ENOENT $M" ||
		fail "failed-syscalls-by-pid: workload, openat, ENOENT $M" \
			"got '$got': $(head -8 "$out/fs-report.txt"; tail -2 "$out/fs-report.err")"

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
	python3 "$top/tests/tools/pdfeat.py" "$sc" "$out/nomap.data" --drop-map &&
		"$tracebox" trace-report -i "$out/nomap.data" syscall-counts >"$out/nomap-report.txt" 2>&1
	n=$(arm64_count "$out/nomap-report.txt" getppid)
	[ "$n" = "$N" ] && pass "without the map: getppid $N from the built-in aarch64 table" ||
		fail "without the map: getppid $N from the built-in aarch64 table" "got '$n'"
	# an arch without a table: numbers, never another arch's names
	python3 "$top/tests/tools/pdfeat.py" "$out/nomap.data" "$out/riscv.data" --arch riscv64 &&
		"$tracebox" trace-report -i "$out/riscv.data" syscall-counts >"$out/riscv-report.txt" 2>&1
	n=$(arm64_count "$out/riscv-report.txt" 173)
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
