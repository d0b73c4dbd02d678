# host-arm.sh - sourced by qemu/check.sh -a arm: what the 32-bit armhf board
# needs before it boots (arm_prepare), and the host's checks of the
# recordings its tiny recorder sent back (arm_host_checks): a 32-bit board's
# tracepoint payloads (4-byte long and pointers) and its own syscall table,
# read by this x86_64 host's trace-report as perf script reads them; names
# from the recording's map, the built-in arm EABI table without it; the
# frame-pointer profile's stacks; the map against arch/arm/tools/syscall.tbl.
# SPDX-License-Identifier: GPL-2.0-only

# arm_prepare BUILD: 0 when the board is built (make kernel-arm initramfs-arm),
# 1 (after a SKIP line) when a package is missing, 2 when the build failed
arm_prepare() {
	why= board_build=$1
	for t in "arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf" \
		"arm-linux-musleabihf-gcc musl-dev:armhf (after dpkg --add-architecture armhf)" \
		"qemu-system-arm qemu-system-arm" "flex flex" "bison bison" "bc bc"; do
		set -- $t
		command -v $1 >/dev/null && continue
		c=$1; shift
		why="${why:+$why; }$c is not installed (Debian: $*)"
	done
	[ -r "${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}" ] ||
		why="${why:+$why; }no kernel source (Debian: linux-source-6.1)"
	if [ -z "$why" ] && ! "$top/initramfs/busybox-arm64.sh" armhf >"${TMPDIR:-/tmp}/busybox-armhf.$$" 2>&1; then
		why="busybox-static:armhf could not be fetched: $(tail -1 "${TMPDIR:-/tmp}/busybox-armhf.$$")"
	fi
	rm -f "${TMPDIR:-/tmp}/busybox-armhf.$$"
	if [ -n "$why" ]; then
		echo "@@ SKIP: arm: the armhf board: $why"
		echo "qemu-check arm: skipped: $why"
		return 1
	fi
	make -C "$top" --no-print-directory BUILD="$board_build" kernel-arm initramfs-arm && return 0
	echo "@@ FAIL: arm: build the armhf board (make kernel-arm initramfs-arm)"
	echo "qemu-check arm: 0 passed, 1 failed, 0 skipped"
	return 2
}

# the count printed after NAME in a report's "NAME  COUNT" lines
arm_count() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# perf script and trace-report print recording $1 alike (perf's options $2...)
arm_same_print() {
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

# the -g profile of srcprog (APCS frames, -marm -mapcs-frame): the kernel's
# callchains, symbolized here from the program's unstripped copy
arm_fp_checks() {
	fp=$files/fp.data
	if [ ! -f "$fp" ]; then
		fail "the board's -g profile reached the host" "no fp.data"
		return
	fi
	mkdir -p "$out/symfs/usr/bin"
	cp "$build/tiny-arm/srcprog" "$out/symfs/usr/bin/srcprog"
	"$tracebox" trace-report --symfs "$out/symfs" -i "$fp" -F comm,ip,sym >"$out/fp.txt" 2>"$out/fp.err"
	# the stacks of samples in leaf and lib_work: their callers as the
	# program calls them (main -> middle -> leaf / lib_work)
	n=$(awk '/^srcprog/ { if (s != "") print s; s = "" } /^\t/ { s = s " " $2 }
		END { if (s != "") print s }' "$out/fp.txt" | sed 's/+0x[0-9a-f]*//g' |
		grep -cE '^ (leaf|lib_work) middle main')
	[ "$n" -gt 5 ] && pass "the board's frame-pointer stacks: leaf/lib_work <- middle <- main ($n samples)" ||
		fail "the board's frame-pointer stacks" "$n samples; $(head -8 "$out/fp.txt" | tr '\n' '|')"
	command -v perf >/dev/null && arm_same_print "$fp" "-g profile" --symfs "$out/symfs"
}

arm_host_checks() {
	if [ ! -f "$files/sc.data" ] || [ ! -f "$files/syscall_map" ]; then
		fail "the guest's recordings reached the host" "nothing in $files"
		return
	fi
	read -r N M <"$files/workload.txt"
	sc=$files/sc.data map=$files/syscall_map

	# the board's recorder: make tiny's size goal holds for 32-bit ARM too
	goal=204800 tiny=$build/tiny-arm/tracebox
	arm-linux-gnueabihf-strip -o "$out/tiny.stripped" "$tiny"
	size=$(stat -c %s "$out/tiny.stripped")
	echo "arm: $tiny is $size bytes stripped (goal: at most $goal)"
	[ "$size" -le $goal ] && pass "the arm tiny recorder is at most $goal bytes stripped ($size)" ||
		fail "the arm tiny recorder's size" "$size bytes stripped, the goal is $goal"

	# the header: an armv7l recording with the kernel's map in it
	"$tracebox" trace-report --header-only -i "$sc" >"$out/sc-header.txt" 2>&1
	grep -q '^# arch : armv7l$' "$out/sc-header.txt" && pass "the recording's arch is armv7l" ||
		fail "the recording's arch is armv7l" "$(grep '^# arch' "$out/sc-header.txt")"
	grep -q '^# syscall map : [0-9]* entries for armv7l, from kernel (tracefs syscall_map)' "$out/sc-header.txt" &&
		pass "the recording's syscall map came from the arm kernel" ||
		fail "the recording's syscall map came from the arm kernel" \
			"$(grep 'syscall map' "$out/sc-header.txt" || tail -2 "$out/sc-header.txt")"

	# syscall-counts: arm EABI names from the recording's map
	"$tracebox" trace-report -i "$sc" syscall-counts >"$out/sc-report.txt" 2>"$out/sc-report.err" &&
		pass "trace-report syscall-counts runs" ||
		fail "trace-report syscall-counts runs" "$(tail -3 "$out/sc-report.err")"
	n=$(arm_count "$out/sc-report.txt" getppid)
	[ "$n" = "$N" ] && pass "syscall-counts: getppid $N (64 in the arm map)" ||
		fail "syscall-counts: getppid $N" "got '$n'"
	n=$(arm_count "$out/sc-report.txt" open)
	[ -n "$n" ] && [ "$n" -ge "$M" ] && pass "syscall-counts: open $M or more ($n)" ||
		fail "syscall-counts: open $M or more" "got '$n'"
	# every name printed is one of the arm map's; a number only for what it lacks
	bad=$(awk 'NR == FNR { name[$2]; nr[$1]; next }
		NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "event" && ($1 ~ /^[0-9]+$/ ? ($1 in nr) : !($1 in name))' \
		"$map" "$out/sc-report.txt")
	[ -z "$bad" ] && pass "syscall-counts: every name from the arm map, every syscall in it named" ||
		fail "syscall-counts: names not from the arm map" "$(echo "$bad" | head -5)"

	# failed-syscalls-by-pid
	"$tracebox" trace-report -i "$files/fs.data" failed-syscalls-by-pid >"$out/fs-report.txt" 2>"$out/fs-report.err"
	got=$(awk '/^workload \[/ { w = 1; next } /^[^ ]/ { w = 0 }
		w && /syscall: open *$/ { o = 1; next } w && /syscall:/ { o = 0 }
		w && o && /err = ENOENT/ { print $NF }' "$out/fs-report.txt")
	[ "$got" = "$M" ] && pass "failed-syscalls-by-pid: workload, open, ENOENT $M" ||
		fail "failed-syscalls-by-pid: workload, open, ENOENT $M" \
			"got '$got': $(head -8 "$out/fs-report.txt"; tail -2 "$out/fs-report.err")"

	# perf reads them (4-byte longs in the payloads): getppid under its arm
	# number, and our default print is its, for syscalls and sched events
	if command -v perf >/dev/null; then
		arm_same_print "$sc" "syscall recording"
		n=$(awk '$1 == "workload" && / NR 64 /' "$out/perf-sc.txt" | wc -l)
		[ "$n" = "$N" ] && pass "perf script: the workload's NR 64 (getppid on arm) $N times" ||
			fail "perf script: the workload's NR 64 $N times" "got $n"
		if [ -f "$files/sw.data" ]; then
			arm_same_print "$files/sw.data" "sched recording"
			n=$(grep -c 'sched:sched_switch:' "$out/tr-sw.txt")
			[ "$n" -gt 0 ] && pass "the sched recording has sched_switch events ($n)" ||
				fail "the sched recording has sched_switch events" "$(head -3 "$out/tr-sw.txt")"
		else
			fail "the board's sched recording reached the host" "no sw.data"
		fi
	else
		echo "@@ SKIP: arm: host: perf script on the arm recordings: perf is not installed (Debian: linux-perf)"
	fi

	arm_fp_checks

	# without the map (a real board's unpatched kernel): the built-in arm table
	python3 "$top/tests/tools/pdfeat.py" "$sc" "$out/nomap.data" --drop-map &&
		"$tracebox" trace-report -i "$out/nomap.data" syscall-counts >"$out/nomap-report.txt" 2>&1
	n=$(arm_count "$out/nomap-report.txt" getppid)
	[ "$n" = "$N" ] && pass "without the map: getppid $N from the built-in arm table" ||
		fail "without the map: getppid $N from the built-in arm table" "got '$n'"

	# the kernel's map against the table it was built from: each line "NR
	# NAME" is a common/eabi row NR of arch/arm/tools/syscall.tbl whose entry
	# point is sys_NAME, or an assembler stub of entry-common.S that branches
	# to sys_NAME (sys_statfs64_wrapper, sys_fstatfs64_wrapper; sys_mmap2 to
	# sys_mmap_pgoff): the map names the call with syscall metadata
	tbl=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/linux-source-6.1/arch/arm/tools/syscall.tbl
	bad=$(awk 'NR == FNR { if ($2 == "common" || $2 == "eabi") { e = $4; sub(/^sys_/, "", e); t[$1] = e }; next }
		!($1 in t) || (t[$1] != $2 && t[$1] != $2 "_wrapper" && !(t[$1] == "mmap2" && $2 == "mmap_pgoff")) {
			print $0 " (table: " t[$1] ")" }' "$tbl" "$map")
	[ -f "$tbl" ] && [ -z "$bad" ] &&
		pass "syscall_map agrees with arch/arm/tools/syscall.tbl ($(wc -l <"$map") syscalls)" ||
		fail "syscall_map disagrees with arch/arm/tools/syscall.tbl" "$(echo "$bad" | head -5)"
}
