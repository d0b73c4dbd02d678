#!/bin/sh
# check-s390x.sh - the big-endian s390x guest's test plan (tbmode=check on the
# s390x board): the tiny recorder records the known workload with the
# kernel's syscall_map, sched events, and a --call-graph dwarf profile of the
# test program, and a -g one (6.1's s390 kernel walks no user stack: a
# user-mode sample's chain is empty); one "@@ PASS|FAIL|SKIP: s390x: ..."
# line per check, "@@ DONE" at the end. The recordings (big-endian
# perf.data files) and the syscall_map go to the host (base64 tar.gz on the
# virtio console /dev/hvc0), where qemu/check.sh -a s390x reports them
# (qemu/host-s390x.sh). The checks the boards share are initramfs/check-board.sh's.
# SPDX-License-Identifier: GPL-2.0-only
board=s390x
. /check-board.sh

board_start s390x s390x
why=$(printf '\001\000' | od -An -tx2 | tr -d ' ')
ok "the guest is big-endian (bytes 01 00 are the 16-bit 0x0100)" [ "$why" = 0100 ]
board_map_checks s390x 250 "20 getpid" "64 getppid" "3 read" "248 exit_group" "288 openat"
board_list_checks events
board_record_checks 2ELIFREP "a big-endian perf.data file (2ELIFREP: PERFILE2 as a big-endian u64)"
board_sched_record

# a --call-graph dwarf profile (s390 user registers and stack dumps): the
# host unwinds it, the board cannot (no unwinder in the tiny recorder)
board_record "trace-record --call-graph dwarf -e cpu-clock -- srcprog" dw \
	trace-record -q --call-graph dwarf -e cpu-clock -c 100000 -o dw.data -- srcprog 30000000
# and -g: 6.1's s390 kernel has no perf_callchain_user, a user-mode
# sample's chain has no frame at all (the host checks it)
board_record "trace-record -g -e cpu-clock -- srcprog (no user frames: s390 6.1 walks no user stack)" fp \
	trace-record -q -g -e cpu-clock -c 100000 -o fp.data -- srcprog 10000000

board_export
