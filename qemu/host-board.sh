# host-board.sh - sourced by qemu/check.sh: what the cross-built boards'
# host sides (qemu/host-arm64.sh, host-arm.sh, host-s390x.sh) share: the
# prepare step (their packages, busybox, make boards) and the checks of the
# recordings every board sends back. A board's file sets BOARD_what (how a
# SKIP line names it), BOARD_busybox (Debian's arch of busybox-static) and
# BOARD_tools (lines "COMMAND PACKAGE..."); the checks use check.sh's arch,
# out, files, build, tracebox, top, pass and fail.
# SPDX-License-Identifier: GPL-2.0-only

# board_missing BOARD: one line per package the board needs and lacks
board_missing() {
	eval "tools=\$${1}_tools"
	printf '%s\n' "$tools" "flex flex" "bison bison" "bc bc" | while read -r c pkg; do
		command -v "$c" >/dev/null || echo "$c is not installed (Debian: $pkg)"
	done
	[ -r "${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}" ] ||
		echo "no kernel source (Debian: linux-source-6.1)"
}

# board_prepare BOARD BUILD: 0 when the board is built (make boards
# QEMU_BOARDS=BOARD), 1 (after a SKIP line) when a package is missing, 2
# when the build failed
board_prepare() {
	b=$1 board_build=$2
	eval "what=\$${b}_what bb=\$${b}_busybox"
	why=$(board_missing "$b" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
	log=${TMPDIR:-/tmp}/busybox-$bb.$$
	if [ -z "$why" ] && ! "$top/initramfs/busybox-arm64.sh" "$bb" >"$log" 2>&1; then
		why="busybox-static:$bb could not be fetched: $(tail -1 "$log")"
	fi
	rm -f "$log"
	if [ -n "$why" ]; then
		echo "@@ SKIP: $b: $what: $why"
		echo "qemu-check $b: skipped: $why"
		return 1
	fi
	# a make of its own (its own jobserver), whatever make runs check.sh
	MAKEFLAGS='' make -C "$top" --no-print-directory BUILD="$board_build" boards QEMU_BOARDS="$b" && return 0
	echo "@@ FAIL: $b: build $what (make boards QEMU_BOARDS=$b)"
	echo "qemu-check $b: 0 passed, 1 failed, 0 skipped"
	return 2
}

# board_recordings: the guest's recordings reached the host; sets N and M
# (the workload's), sc and map
board_recordings() {
	if [ ! -f "$files/sc.data" ] || [ ! -f "$files/syscall_map" ]; then
		fail "the guest's recordings reached the host" "nothing in $files"
		return 1
	fi
	read -r N M <"$files/workload.txt"
	sc=$files/sc.data map=$files/syscall_map
}

# the count printed after NAME in a report's "NAME  COUNT" lines
board_count() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# board_tiny_size FOLDER STRIP NAME: the board's recorder ($build/FOLDER/
# tracebox, "the NAME tiny recorder"): make tiny's size goal holds for it
board_tiny_size() {
	goal=204800 tiny=$build/$1/tracebox
	$2 -o "$out/tiny.stripped" "$tiny"
	size=$(stat -c %s "$out/tiny.stripped")
	echo "$arch: $tiny is $size bytes stripped (goal: at most $goal)"
	[ "$size" -le $goal ] && pass "the $3 tiny recorder is at most $goal bytes stripped ($size)" ||
		fail "the $3 tiny recorder's size" "$size bytes stripped, the goal is $goal"
}

# board_header_checks UNAME KERNEL: the header: a UNAME recording with the
# map of the KERNEL kernel in it
board_header_checks() {
	"$tracebox" trace-report --header-only -i "$sc" >"$out/sc-header.txt" 2>&1
	grep -q "^# arch : $1\$" "$out/sc-header.txt" && pass "the recording's arch is $1" ||
		fail "the recording's arch is $1" "$(grep '^# arch' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"
	grep -q "^# syscall map : [0-9]* entries for $1, from kernel (tracefs syscall_map)" "$out/sc-header.txt" &&
		pass "the recording's syscall map came from the $2 kernel" ||
		fail "the recording's syscall map came from the $2 kernel" \
			"$(grep 'syscall map' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"
}

# board_report_checks MAP NR OPEN: syscall-counts with the names of the
# recording's map ("the MAP map": getppid is NR there, the workload's
# failing opens are OPEN calls), then failed-syscalls-by-pid
board_report_checks() {
	"$tracebox" trace-report -i "$sc" syscall-counts >"$out/sc-report.txt" 2>"$out/sc-report.err" &&
		pass "trace-report syscall-counts runs" ||
		fail "trace-report syscall-counts runs" "$(tail -3 "$out/sc-report.err")"
	n=$(board_count "$out/sc-report.txt" getppid)
	[ "$n" = "$N" ] && pass "syscall-counts: getppid $N ($2 in the $1 map)" ||
		fail "syscall-counts: getppid $N" "got '$n'"
	n=$(board_count "$out/sc-report.txt" "$3")
	[ -n "$n" ] && [ "$n" -ge "$M" ] && pass "syscall-counts: $3 $M or more ($n)" ||
		fail "syscall-counts: $3 $M or more" "got '$n'"
	# every name printed is one of the map's; a number only for what it lacks
	bad=$(awk 'NR == FNR { name[$2]; nr[$1]; next }
		NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "event" && ($1 ~ /^[0-9]+$/ ? ($1 in nr) : !($1 in name))' \
		"$map" "$out/sc-report.txt")
	[ -s "$out/sc-report.txt" ] && [ -z "$bad" ] &&
		pass "syscall-counts: every name from the $1 map, every syscall in it named" ||
		fail "syscall-counts: names not from the $1 map" "$(echo "$bad" | head -5)"

	"$tracebox" trace-report -i "$files/fs.data" failed-syscalls-by-pid >"$out/fs-report.txt" 2>"$out/fs-report.err"
	got=$(awk -v o="$3" '/^workload \[/ { w = 1; next } /^[^ ]/ { w = 0 }
		w && $0 ~ "syscall: " o " *$" { f = 1; next } w && /syscall:/ { f = 0 }
		w && f && /err = ENOENT/ { print $NF }' "$out/fs-report.txt")
	[ "$got" = "$M" ] && pass "failed-syscalls-by-pid: workload, $3, ENOENT $M" ||
		fail "failed-syscalls-by-pid: workload, $3, ENOENT $M" \
			"got '$got': $(head -8 "$out/fs-report.txt"; tail -2 "$out/fs-report.err")"
}

# perf script and trace-report print recording $1 alike (perf's options $2...)
board_same_print() {
	d=$1 what=$2; shift 2
	b=$(basename "$d" .data)
	perf script -i "$d" "$@" >"$out/perf-$b.txt" 2>"$out/perf-$b.err" ||
		{ fail "perf script reads the board's $what" "$(tail -3 "$out/perf-$b.err")"; return; }
	"$tracebox" trace-report -i "$d" "$@" >"$out/tr-$b.txt" 2>"$out/tr-$b.err"
	[ -s "$out/perf-$b.txt" ] && cmp -s "$out/perf-$b.txt" "$out/tr-$b.txt" &&
		pass "trace-report prints the board's $what as perf script does ($(wc -l <"$out/tr-$b.txt") lines)" ||
		fail "trace-report prints the board's $what as perf script does" \
			"$(diff "$out/perf-$b.txt" "$out/tr-$b.txt" | head -5; tail -2 "$out/tr-$b.err")"
}

# board_perf_checks FROM: perf 6.1 reads the syscall and sched recordings
# (getppid under its number on the board, 64), trace-report prints them as
# perf does; the sched_switch events counted in FROM's print (tr or perf)
board_perf_checks() {
	if ! command -v perf >/dev/null; then
		echo "@@ SKIP: $arch: host: perf script on the $arch recordings: perf is not installed (Debian: linux-perf)"
		return
	fi
	board_same_print "$sc" "syscall recording"
	n=$(awk '$1 == "workload" && / NR 64 /' "$out/perf-sc.txt" | wc -l)
	[ "$n" = "$N" ] && pass "perf script: the workload's NR 64 (getppid on $arch) $N times" ||
		fail "perf script: the workload's NR 64 $N times" "got $n"
	if [ ! -f "$files/sw.data" ]; then
		fail "the board's sched recording reached the host" "no sw.data"
		return
	fi
	board_same_print "$files/sw.data" "sched recording"
	what="the sched recording has sched_switch events"
	[ "$1" = perf ] && what="perf script: $what"
	n=$(grep -c 'sched:sched_switch:' "$out/$1-sw.txt")
	[ "$n" -gt 0 ] && pass "$what ($n)" || fail "$what" "$(head -3 "$out/$1-sw.txt")"
}

# board_symfs FOLDER: the test program's unstripped copy ($build/FOLDER/
# srcprog) under $out/symfs, where the guest ran it
board_symfs() {
	mkdir -p "$out/symfs/usr/bin"
	cp "$build/$1/srcprog" "$out/symfs/usr/bin/srcprog"
}

# board_stacks PRINT [FIRST]: how many samples of PRINT (-F comm,ip,sym) have
# the stacks the program calls (main -> middle -> leaf / lib_work), under a
# FIRST frame matched too (a regex: "(mix )?")
board_stacks() {
	awk '/^srcprog/ { if (s != "") print s; s = "" } /^\t/ { s = s " " $2 }
		END { if (s != "") print s }' "$1" | sed 's/+0x[0-9a-f]*//g' |
		grep -cE "^ ${2:-}(leaf|lib_work) middle main"
}

# board_dwarf_checks: the board's --call-graph dwarf profile, unwound here
# (its registers and CFI on this x86 host) with the program under --symfs;
# 1 when the profile did not reach the host
board_dwarf_checks() {
	dw=$files/dw.data
	if [ ! -f "$dw" ]; then
		fail "the board's dwarf profile reached the host" "no dw.data"
		return 1
	fi
	"$tracebox" trace-report --symfs "$out/symfs" -i "$dw" -F comm,ip,sym >"$out/dw.txt" 2>"$out/dw.err"
	n=$(board_stacks "$out/dw.txt" "(mix )?")
	[ "$n" -gt 5 ] && pass "the host unwinds the board's dwarf stacks: leaf/lib_work <- middle <- main ($n samples)" ||
		fail "the board's dwarf stacks unwound" "$n samples; $(head -8 "$out/dw.txt" "$out/dw.err" | tr '\n' '|')"
}

# board_nomap_check TABLE: without the map (a real board's unpatched
# kernel), getppid named from the built-in TABLE table
board_nomap_check() {
	python3 "$top/tests/tools/pdfeat.py" "$sc" "$out/nomap.data" --drop-map &&
		"$tracebox" trace-report -i "$out/nomap.data" syscall-counts >"$out/nomap-report.txt" 2>&1
	n=$(board_count "$out/nomap-report.txt" getppid)
	[ "$n" = "$N" ] && pass "without the map: getppid $N from the built-in $1 table" ||
		fail "without the map: getppid $N from the built-in $1 table" "got '$n'"
}

# board_table_check TABLE ABI ALSO: the kernel's map against the syscall.tbl
# it was built from (TABLE, under the kernel tree): each line "NR NAME" is a
# common or ABI row NR whose entry point is sys_NAME, or one ALSO (an awk
# condition on e, the row's entry without sys_, and $2, NAME) allows
board_table_check() {
	tbl=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/linux-source-6.1/$1
	bad=$(awk -v abi="$2" 'NR == FNR { if ($2 == "common" || $2 == abi) { e = $4; sub(/^sys_/, "", e); t[$1] = e }; next }
		{ k = $1 in t; e = k ? t[$1] : "" } !k || (e != $2 && !('"$3"')) { print $0 " (table: " e ")" }' "$tbl" "$map")
	[ -f "$tbl" ] && [ -z "$bad" ] &&
		pass "syscall_map agrees with $1 ($(wc -l <"$map") syscalls)" ||
		fail "syscall_map disagrees with $1" "$(echo "$bad" | head -5)"
}
