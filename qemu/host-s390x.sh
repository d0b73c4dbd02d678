# host-s390x.sh - sourced by qemu/check.sh -a s390x: what the big-endian
# s390x board needs before it boots (s390x_what, s390x_tools), and the host's checks of
# the recordings its tiny recorder sent back (s390x_host_checks): big-endian
# (byte-swapped) perf.data files with the board's own syscall table, read by
# this x86_64 host's trace-report as perf script reads them; names from the
# recording's map, the built-in s390x table without it; the dwarf profile's
# stacks; the -g profile's user stacks, which are empty; the map against
# arch/s390/kernel/syscalls/syscall.tbl. The parts the boards share are
# qemu/host-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only

s390x_what="the s390x board" s390x_busybox=s390x
s390x_tools="s390x-linux-gnu-gcc gcc-s390x-linux-gnu
s390x-linux-musl-gcc musl-dev:s390x (after dpkg --add-architecture s390x)
qemu-system-s390x qemu-system-misc"

# the profiles of srcprog: --call-graph dwarf (s390 registers and stack
# dumps, unwound here with the unstripped copy's CFI under --symfs), and -g,
# whose user stacks are empty (6.1's s390 kernel walks none; the sample's ip
# is the only user address)
s390x_profile_checks() {
	board_symfs tiny-s390x
	board_dwarf_checks
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
		command -v perf >/dev/null && board_same_print "$fp" "-g profile" --symfs "$out/symfs"
	else
		fail "the board's -g profile reached the host" "no fp.data"
	fi
}

s390x_host_checks() {
	board_recordings || return
	board_tiny_size tiny-s390x s390x-linux-gnu-strip s390x
	# perf 6.1 reads the byte-swapped files; trace-report prints them as perf does
	board_perf_checks perf
	# an s390x recording; s390x names from its map
	board_header_checks s390x s390x
	board_report_checks s390x 64 open
	s390x_profile_checks
	board_nomap_check s390x
	# the kernel's map against the table it was built from: a common/64 row
	# whose 64-bit entry point is sys_NAME (or sys_s390_NAME)
	board_table_check arch/s390/kernel/syscalls/syscall.tbl 64 'e == "s390_" $2'
}
