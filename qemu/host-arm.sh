# host-arm.sh - sourced by qemu/check.sh -a arm: what the 32-bit armhf board
# needs before it boots (arm_what, arm_tools), and the host's checks of the
# recordings its tiny recorder sent back (arm_host_checks): a 32-bit board's
# tracepoint payloads (4-byte long and pointers) and its own syscall table,
# read by this x86_64 host's trace-report as perf script reads them; names
# from the recording's map, the built-in arm EABI table without it; the
# frame-pointer profile's stacks; the map against arch/arm/tools/syscall.tbl.
# The parts the boards share are qemu/host-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only

arm_what="the armhf board" arm_busybox=armhf
arm_tools="arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf
arm-linux-musleabihf-gcc musl-dev:armhf (after dpkg --add-architecture armhf)
qemu-system-arm qemu-system-arm"

# the -g profile of srcprog (APCS frames, -marm -mapcs-frame): the kernel's
# callchains, symbolized here from the program's unstripped copy
arm_fp_checks() {
	fp=$files/fp.data
	if [ ! -f "$fp" ]; then
		fail "the board's -g profile reached the host" "no fp.data"
		return
	fi
	board_symfs tiny-arm
	"$tracebox" trace-report --symfs "$out/symfs" -i "$fp" -F comm,ip,sym >"$out/fp.txt" 2>"$out/fp.err"
	n=$(board_stacks "$out/fp.txt")
	[ "$n" -gt 5 ] && pass "the board's frame-pointer stacks: leaf/lib_work <- middle <- main ($n samples)" ||
		fail "the board's frame-pointer stacks" "$n samples; $(head -8 "$out/fp.txt" | tr '\n' '|')"
	command -v perf >/dev/null && board_same_print "$fp" "-g profile" --symfs "$out/symfs"
}

arm_host_checks() {
	board_recordings || return
	board_tiny_size tiny-arm arm-linux-gnueabihf-strip arm
	# an armv7l recording; arm EABI names from its map
	board_header_checks armv7l arm
	board_report_checks arm 64 open
	# perf reads them (4-byte longs in the payloads)
	board_perf_checks tr
	arm_fp_checks
	board_nomap_check arm
	# the kernel's map against the table it was built from: a common/eabi
	# row, or an assembler stub of entry-common.S that branches to sys_NAME
	# (sys_statfs64_wrapper, sys_fstatfs64_wrapper; sys_mmap2 to
	# sys_mmap_pgoff): the map names the call with syscall metadata
	board_table_check arch/arm/tools/syscall.tbl eabi 'e == $2 "_wrapper" || (e == "mmap2" && $2 == "mmap_pgoff")'
}
