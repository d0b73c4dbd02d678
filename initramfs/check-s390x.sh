#!/bin/sh
# check-s390x.sh - the big-endian s390x guest's test plan (tbmode=check on the
# s390x board): the tiny recorder records the known workload with the
# kernel's syscall_map, sched events, and a --call-graph dwarf profile of the
# test program, and a -g one (6.1's s390 kernel walks no user stack: a
# user-mode sample's chain is empty); one "@@ PASS|FAIL|SKIP: s390x: ..."
# line per check, "@@ DONE" at the end. The recordings (big-endian
# perf.data files) and the syscall_map go to the host (base64 tar.gz on the
# virtio console /dev/hvc0), where qemu/check.sh -a s390x reports them
# (qemu/host-s390x.sh).
# SPDX-License-Identifier: GPL-2.0-only
N=${N:-2000} M=${M:-300}        # the workload: N getppid calls, M failing opens
out=/tmp/out
map=/sys/kernel/tracing/syscall_map
mkdir -p $out && cd $out || exit 1
echo "$N $M" >workload.txt

pass() { echo "@@ PASS: s390x: $1"; }
fail() { echo "@@ FAIL: s390x: $1${2:+: $2}"; }
# ok NAME COMMAND...: PASS if the command succeeds, else FAIL with $why (then cleared)
ok() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "$why"; fi; why=; }

echo "@@ START guest $(uname -r) $(uname -m), $(nproc) CPUs"
why=$(uname -m)
ok "the guest is s390x" [ "$(uname -m)" = s390x ]
why=$(printf '\001\000' | od -An -tx2 | tr -d ' ')
ok "the guest is big-endian (bytes 01 00 are the 16-bit 0x0100)" [ "$why" = 0100 ]
why="$(nproc) CPUs"
ok "the guest has 2 CPUs" [ "$(nproc)" = 2 ]

# --- the kernel's syscall map (the patch, cross-built): the s390x numbers
ok "tracefs has the syscall_map file" test -f $map
why=$(ls -l $map 2>&1)
ok "syscall_map is read-only (r--r-----, and a write fails)" sh -c \
	"ls -l $map | grep -q '^-r--r----- ' && ! echo 1 2>/dev/null >$map"
why="cannot read it"; cp $map syscall_map 2>/dev/null
why=$(grep -w 'getpid\|getppid\|read\|exit_group\|openat' syscall_map | tr '\n' ' ')
ok "syscall_map has the s390x numbers: 20 getpid, 64 getppid, 3 read, 248 exit_group, 288 openat" sh -c \
	"grep -qx '20 getpid' syscall_map && grep -qx '64 getppid' syscall_map &&
	 grep -qx '3 read' syscall_map && grep -qx '248 exit_group' syscall_map &&
	 grep -qx '288 openat' syscall_map"
why="$(wc -l <syscall_map) lines"
ok "syscall_map lists 250+ syscalls, each 'NR NAME' once" sh -c \
	"[ \$(wc -l <syscall_map) -gt 250 ] && ! grep -qv '^[0-9][0-9]* [a-z0-9_]*\$' syscall_map &&
	 [ -z \"\$(cut -d' ' -f1 syscall_map | uniq -d)\" ]"

# --- the tiny recorder: its catalogue, this kernel's tracepoints
tracebox >applets.txt 2>&1
trace-list >list.txt 2>&1
for s in syscall-counts failed-syscalls-by-pid; do
	why=$(head -3 list.txt)
	ok "trace-list shows $s" grep -q "^  $s " list.txt
done
trace-list --events >events.txt 2>&1
why=$(head -3 events.txt)
ok "trace-list --events lists this kernel's tracepoints (raw_syscalls, sched)" sh -c \
	"grep -q 'raw_syscalls:sys_enter' events.txt && grep -q 'sched:sched_switch' events.txt"
trace-list --events 'sched:*' >events-sched.txt 2>&1
why=$(head -3 events-sched.txt)
ok "trace-list --events 'sched:*' lists only sched events" sh -c \
	"grep -q 'sched:sched_wakeup' events-sched.txt && ! grep -q 'raw_syscalls' events-sched.txt"

# --- the recordings the host reports
trace-record syscall-counts -q -o sc.data -- workload $N $M >sc-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 sc-record.txt)"
ok "trace-record syscall-counts -- workload $N $M" [ $rc = 0 ]
why=$(head -c 8 sc.data 2>&1)
ok "the recording is a big-endian perf.data file (2ELIFREP: PERFILE2 as a big-endian u64)" \
	[ "$(head -c 8 sc.data 2>/dev/null)" = 2ELIFREP ]
trace-record failed-syscalls-by-pid -q -o fs.data -- workload 10 $M >fs-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 fs-record.txt)"
ok "trace-record failed-syscalls-by-pid -- workload 10 $M" [ $rc = 0 ]

# --- sched events: switches and wake-ups of a program that sleeps
trace-record -q -e sched:sched_switch -e sched:sched_wakeup -o sw.data -- \
	sh -c 'for i in 1 2 3 4 5; do usleep 10000; done' >sw-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 sw-record.txt)"
ok "trace-record -e sched:sched_switch -e sched:sched_wakeup -- a sleeping loop" [ $rc = 0 ]

# --- a --call-graph dwarf profile (s390 user registers and stack dumps):
# the host unwinds it, the board cannot (no unwinder in the tiny recorder)
trace-record -q --call-graph dwarf -e cpu-clock -c 100000 -o dw.data -- srcprog 30000000 \
	>dw-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 dw-record.txt)"
ok "trace-record --call-graph dwarf -e cpu-clock -- srcprog" [ $rc = 0 ]
# and -g: 6.1's s390 kernel has no perf_callchain_user, a user-mode
# sample's chain has no frame at all (the host checks it)
trace-record -q -g -e cpu-clock -c 100000 -o fp.data -- srcprog 10000000 >fp-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 fp-record.txt)"
ok "trace-record -g -e cpu-clock -- srcprog (no user frames: s390 6.1 walks no user stack)" [ $rc = 0 ]

# --- the recordings to the host, then the verdict line
port=/dev/hvc0
if [ -e $port ] && stty -F $port raw -echo 2>/dev/null; then
	{ echo "@@ EXPORT-BEGIN"; tar -czf - . | base64; echo "@@ EXPORT-END"; } >$port
else
	fail "export the recordings to the host" "no virtio console ($port)"
fi
echo "@@ DONE"
