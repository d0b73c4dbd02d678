#!/bin/sh
# check-arm.sh - the 32-bit armhf guest's test plan (tbmode=check on the arm
# board): the tiny recorder records the known workload with the kernel's
# syscall_map, sched events, and a frame-pointer profile of the test program;
# one "@@ PASS|FAIL|SKIP: arm: ..." line per check, "@@ DONE" at the end. The
# recordings and the syscall_map go to the host (base64 tar.gz on the virtio
# console /dev/hvc0), where qemu/check.sh -a arm reports them (qemu/host-arm.sh).
# The checks the boards share are initramfs/check-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only
board=arm
. /check-board.sh

board_start armv7l "32-bit ARM (armv7l)"
# the EABI numbers
board_map_checks "arm EABI" 250 "20 getpid" "64 getppid" "3 read" "248 exit_group" "322 openat"
board_list_checks events
board_record_checks PERFILE2 "a perf.data file (PERFILE2)"
board_sched_record

# a frame-pointer profile (-g): the kernel walks the program's APCS frames
board_record "trace-record -g -e cpu-clock -- srcprog (APCS frames)" fp \
	trace-record -q -g -e cpu-clock -c 100000 -o fp.data -- srcprog 30000000

board_export
