# host-s390x.sh - sourced by qemu/check.sh -a s390x: what the big-endian
# s390x board needs before it boots (s390x_prepare), and the host's checks of
# the recordings its tiny recorder sent back (s390x_host_checks): big-endian
# (byte-swapped) perf.data files with the board's own syscall table, read by
# this x86_64 host's trace-report as perf script reads them; names from the
# recording's map, the built-in s390x table without it; the dwarf profile's
# stacks; the -g profile's user stacks, which are empty; the map against
# arch/s390/kernel/syscalls/syscall.tbl.
# SPDX-License-Identifier: GPL-2.0-only

# s390x_prepare BUILD: 0 when the board is built (make kernel-s390
# initramfs-s390x), 1 (after a SKIP line) when a package is missing, 2 when
# the build failed
s390x_prepare() {
	why= board_build=$1
	for t in "s390x-linux-gnu-gcc gcc-s390x-linux-gnu" \
		"s390x-linux-musl-gcc musl-dev:s390x (after dpkg --add-architecture s390x)" \
		"qemu-system-s390x qemu-system-misc" "flex flex" "bison bison" "bc bc"; do
		set -- $t
		command -v $1 >/dev/null && continue
		c=$1; shift
		why="${why:+$why; }$c is not installed (Debian: $*)"
	done
	[ -r "${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}" ] ||
		why="${why:+$why; }no kernel source (Debian: linux-source-6.1)"
	if [ -z "$why" ] && ! "$top/initramfs/busybox-arm64.sh" s390x >"${TMPDIR:-/tmp}/busybox-s390x.$$" 2>&1; then
		why="busybox-static:s390x could not be fetched: $(tail -1 "${TMPDIR:-/tmp}/busybox-s390x.$$")"
	fi
	rm -f "${TMPDIR:-/tmp}/busybox-s390x.$$"
	if [ -n "$why" ]; then
		echo "@@ SKIP: s390x: the s390x board: $why"
		echo "qemu-check s390x: skipped: $why"
		return 1
	fi
	make -C "$top" --no-print-directory BUILD="$board_build" kernel-s390 initramfs-s390x && return 0
	echo "@@ FAIL: s390x: build the s390x board (make kernel-s390 initramfs-s390x)"
	echo "qemu-check s390x: 0 passed, 1 failed, 0 skipped"
	return 2
}

# the count printed after NAME in a report's "NAME  COUNT" lines
s390x_count() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# perf script and trace-report print recording $1 alike (perf's options $2...)
s390x_same_print() {
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

# the profiles of srcprog: --call-graph dwarf (s390 registers and stack
# dumps, unwound here with the unstripped copy's CFI under --symfs), and -g,
# whose user stacks are empty (6.1's s390 kernel walks none; the sample's ip
# is the only user address)
s390x_profile_checks() {
	mkdir -p "$out/symfs/usr/bin"
	cp "$build/tiny-s390x/srcprog" "$out/symfs/usr/bin/srcprog"
	dw=$files/dw.data
	if [ -f "$dw" ]; then
		"$tracebox" trace-report --symfs "$out/symfs" -i "$dw" -F comm,ip,sym >"$out/dw.txt" 2>"$out/dw.err"
		n=$(awk '/^srcprog/ { if (s != "") print s; s = "" } /^\t/ { s = s " " $2 }
			END { if (s != "") print s }' "$out/dw.txt" | sed 's/+0x[0-9a-f]*//g' |
			grep -cE '^ (mix )?(leaf|lib_work) middle main')
		[ "$n" -gt 5 ] && pass "the host unwinds the board's dwarf stacks: leaf/lib_work <- middle <- main ($n samples)" ||
			fail "the board's dwarf stacks unwound" "$n samples; $(head -8 "$out/dw.txt" "$out/dw.err" | tr '\n' '|')"
	else
		fail "the board's dwarf profile reached the host" "no dw.data"
	fi
	fp=$files/fp.data
	if [ -f "$fp" ]; then
		"$tracebox" trace-report --symfs "$out/symfs" -i "$fp" -F comm,ip,sym >"$out/fp.txt" 2>"$out/fp.err"
		# 6.1's s390 has no perf_callchain_user: a user-mode sample's chain
		# is PERF_CONTEXT_USER and nothing else, not even the leaf (the
		# sample's ip has it); a kernel-mode one's has its kernel frames
		n=$(grep -c '^srcprog' "$out/fp.txt")
		u=$(grep -cE '^[[:space:]]+[0-9a-f]+ (leaf|lib_work|middle|mix|main)(\+|$)' "$out/fp.txt")
		[ "$n" -gt 5 ] && [ "$u" = 0 ] &&
			pass "the board's -g stacks carry no user frame ($n samples; s390 6.1 walks no user stack)" ||
			fail "the board's -g stacks carry no user frame" "$n samples, $u user frames; $(head -8 "$out/fp.txt" "$out/fp.err" | tr '\n' '|')"
		command -v perf >/dev/null && s390x_same_print "$fp" "-g profile" --symfs "$out/symfs"
	else
		fail "the board's -g profile reached the host" "no fp.data"
	fi
}

s390x_host_checks() {
	if [ ! -f "$files/sc.data" ] || [ ! -f "$files/syscall_map" ]; then
		fail "the guest's recordings reached the host" "nothing in $files"
		return
	fi
	read -r N M <"$files/workload.txt"
	sc=$files/sc.data map=$files/syscall_map

	# the board's recorder: make tiny's size goal
	goal=204800 tiny=$build/tiny-s390x/tracebox
	s390x-linux-gnu-strip -o "$out/tiny.stripped" "$tiny"
	size=$(stat -c %s "$out/tiny.stripped")
	echo "s390x: $tiny is $size bytes stripped (goal: at most $goal)"
	[ "$size" -le $goal ] && pass "the s390x tiny recorder is at most $goal bytes stripped ($size)" ||
		fail "the s390x tiny recorder's size" "$size bytes stripped, the goal is $goal"

	# perf 6.1 reads the byte-swapped files: getppid under its s390x number
	# (64), and sched events; then trace-report prints them as perf does
	if command -v perf >/dev/null; then
		s390x_same_print "$sc" "syscall recording"
		n=$(awk '$1 == "workload" && / NR 64 /' "$out/perf-sc.txt" | wc -l)
		[ "$n" = "$N" ] && pass "perf script: the workload's NR 64 (getppid on s390x) $N times" ||
			fail "perf script: the workload's NR 64 $N times" "got $n"
		if [ -f "$files/sw.data" ]; then
			s390x_same_print "$files/sw.data" "sched recording"
			n=$(grep -c 'sched:sched_switch:' "$out/perf-sw.txt")
			[ "$n" -gt 0 ] && pass "perf script: the sched recording has sched_switch events ($n)" ||
				fail "perf script: the sched recording has sched_switch events" "$(head -3 "$out/perf-sw.txt")"
		else
			fail "the board's sched recording reached the host" "no sw.data"
		fi
	else
		echo "@@ SKIP: s390x: host: perf script on the s390x recordings: perf is not installed (Debian: linux-perf)"
	fi

	# the header: an s390x recording with the kernel's map in it
	"$tracebox" trace-report --header-only -i "$sc" >"$out/sc-header.txt" 2>&1
	grep -q '^# arch : s390x$' "$out/sc-header.txt" && pass "the recording's arch is s390x" ||
		fail "the recording's arch is s390x" "$(grep '^# arch' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"
	grep -q '^# syscall map : [0-9]* entries for s390x, from kernel (tracefs syscall_map)' "$out/sc-header.txt" &&
		pass "the recording's syscall map came from the s390x kernel" ||
		fail "the recording's syscall map came from the s390x kernel" \
			"$(grep 'syscall map' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"

	# syscall-counts: s390x names from the recording's map
	"$tracebox" trace-report -i "$sc" syscall-counts >"$out/sc-report.txt" 2>"$out/sc-report.err" &&
		pass "trace-report syscall-counts runs" ||
		fail "trace-report syscall-counts runs" "$(tail -3 "$out/sc-report.err")"
	n=$(s390x_count "$out/sc-report.txt" getppid)
	[ "$n" = "$N" ] && pass "syscall-counts: getppid $N (64 in the s390x map)" ||
		fail "syscall-counts: getppid $N" "got '$n'"
	n=$(s390x_count "$out/sc-report.txt" open)
	[ -n "$n" ] && [ "$n" -ge "$M" ] && pass "syscall-counts: open $M or more ($n)" ||
		fail "syscall-counts: open $M or more" "got '$n'"
	bad=$(awk 'NR == FNR { name[$2]; nr[$1]; next }
		NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "event" && ($1 ~ /^[0-9]+$/ ? ($1 in nr) : !($1 in name))' \
		"$map" "$out/sc-report.txt")
	[ -s "$out/sc-report.txt" ] && [ -z "$bad" ] &&
		pass "syscall-counts: every name from the s390x map, every syscall in it named" ||
		fail "syscall-counts: names not from the s390x map" "$(echo "$bad" | head -5)"

	# failed-syscalls-by-pid
	"$tracebox" trace-report -i "$files/fs.data" failed-syscalls-by-pid >"$out/fs-report.txt" 2>"$out/fs-report.err"
	got=$(awk '/^workload \[/ { w = 1; next } /^[^ ]/ { w = 0 }
		w && /syscall: open *$/ { o = 1; next } w && /syscall:/ { o = 0 }
		w && o && /err = ENOENT/ { print $NF }' "$out/fs-report.txt")
	[ "$got" = "$M" ] && pass "failed-syscalls-by-pid: workload, open, ENOENT $M" ||
		fail "failed-syscalls-by-pid: workload, open, ENOENT $M" \
			"got '$got': $(head -8 "$out/fs-report.txt"; tail -2 "$out/fs-report.err")"

	s390x_profile_checks

	# without the map (a real board's unpatched kernel): the built-in s390x table
	python3 "$top/tests/tools/pdfeat.py" "$sc" "$out/nomap.data" --drop-map &&
		"$tracebox" trace-report -i "$out/nomap.data" syscall-counts >"$out/nomap-report.txt" 2>&1
	n=$(s390x_count "$out/nomap-report.txt" getppid)
	[ "$n" = "$N" ] && pass "without the map: getppid $N from the built-in s390x table" ||
		fail "without the map: getppid $N from the built-in s390x table" "got '$n'"

	# the kernel's map against the table it was built from: each line "NR
	# NAME" is a common/64 row NR of arch/s390/kernel/syscalls/syscall.tbl
	# whose 64-bit entry point is sys_NAME (or sys_s390_NAME)
	tbl=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/linux-source-6.1/arch/s390/kernel/syscalls/syscall.tbl
	bad=$(awk 'NR == FNR { if ($2 == "common" || $2 == "64") { e = $4; sub(/^sys_/, "", e); t[$1] = e }; next }
		!($1 in t) || (t[$1] != $2 && t[$1] != "s390_" $2) { print $0 " (table: " t[$1] ")" }' "$tbl" "$map")
	[ -f "$tbl" ] && [ -z "$bad" ] &&
		pass "syscall_map agrees with arch/s390/kernel/syscalls/syscall.tbl ($(wc -l <"$map") syscalls)" ||
		fail "syscall_map disagrees with arch/s390/kernel/syscalls/syscall.tbl" "$(echo "$bad" | head -5)"
}
