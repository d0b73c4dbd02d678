#!/bin/sh
# check-arm64.sh - the arm64 guest's test plan (tbmode=check on the arm64
# board): the tiny recorder records the known workload with the kernel's
# syscall_map; one "@@ PASS|FAIL|SKIP: arm64: ..." line per check, "@@ DONE"
# at the end. The board has no report applets: the recordings and the
# syscall_map go to the host (base64 tar.gz on the virtio console /dev/hvc0),
# where qemu/check.sh -a arm64 reports them with the host build. The checks
# the boards share are initramfs/check-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only
board=arm64
. /check-board.sh

board_start aarch64 aarch64
board_map_checks arm64 200 "172 getpid" "173 getppid" "63 read" "94 exit_group" "56 openat"
board_list_checks
board_record_checks PERFILE2 "a perf.data file (PERFILE2)"

# a --call-graph dwarf profile (user registers and stack dumps): the host
# unwinds it, the board cannot (no unwinder in the tiny recorder)
board_record "trace-record --call-graph dwarf -- srcprog" dw \
	trace-record -q --call-graph dwarf -e cpu-clock -c 100000 -o dw.data -- srcprog 30000000

# --- a module's code sampled: the host resolves its symbols (issue 23)
why=$(insmod /tbmod.ko 2>&1)
ok "insmod tbmod.ko" grep -q '^tbmod ' /proc/modules
cp /proc/kallsyms kallsyms.txt
cp /proc/modules modules.txt
board_record "trace-record of 500 ms in the module's code" mod \
	trace-record -q -e cpu-clock -c 100000 -o mod.data -- sh -c 'echo 500 >/sys/module/tbmod/parameters/spin_ms'

board_export
