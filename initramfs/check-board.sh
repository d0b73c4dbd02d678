# check-board.sh - sourced by the cross-built boards' guest plans
# (check-arm64.sh, check-arm.sh, check-s390x.sh; /check-board.sh in their
# initramfs): the plan's frame and the checks they share. Set board (its
# name in the "@@ PASS|FAIL|SKIP: BOARD: ..." lines) first; this file sets N
# and M (the workload: N getppid calls, M failing opens), out (the folder
# that goes to the host, the current one) and map (the kernel's syscall map).
# SPDX-License-Identifier: GPL-2.0-only
N=${N:-2000} M=${M:-300}
out=/tmp/out
map=/sys/kernel/tracing/syscall_map
mkdir -p $out && cd $out || exit 1
echo "$N $M" >workload.txt

pass() { echo "@@ PASS: $board: $1"; }
fail() { echo "@@ FAIL: $board: $1${2:+: $2}"; }
# ok NAME COMMAND...: PASS if the command succeeds, else FAIL with $why (then cleared)
ok() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "$why"; fi; why=; }

# board_start UNAME WHAT: the START line; the guest's uname -m is UNAME ("the
# guest is WHAT"), it has 2 CPUs
board_start() {
	echo "@@ START guest $(uname -r) $(uname -m), $(nproc) CPUs"
	why=$(uname -m)
	ok "the guest is $2" [ "$(uname -m)" = "$1" ]
	why="$(nproc) CPUs"
	ok "the guest has 2 CPUs" [ "$(nproc)" = 2 ]
}

# board_map_checks WHAT MIN "NR NAME"...: the kernel's syscall map (the patch,
# cross-built): there, read-only, these lines of the board's numbers (WHAT
# names them), more than MIN syscalls, each "NR NAME" once; copied here
board_map_checks() {
	what=$1 min=$2; shift 2
	ok "tracefs has the syscall_map file" test -f $map
	why=$(ls -l $map 2>&1)
	ok "syscall_map is read-only (r--r-----, and a write fails)" sh -c \
		"ls -l $map | grep -q '^-r--r----- ' && ! echo 1 2>/dev/null >$map"
	why="cannot read it"; cp $map syscall_map 2>/dev/null
	why=$(grep -w 'getpid\|getppid\|read\|exit_group\|openat' syscall_map | tr '\n' ' ')
	list= all=true
	for line; do
		list="${list:+$list, }$line"
		grep -qx "$line" syscall_map || all=false
	done
	ok "syscall_map has the $what numbers: $list" $all
	why="$(wc -l <syscall_map) lines"
	ok "syscall_map lists $min+ syscalls, each 'NR NAME' once" sh -c \
		"[ \$(wc -l <syscall_map) -gt $min ] && ! grep -qv '^[0-9][0-9]* [a-z0-9_]*\$' syscall_map &&
		 [ -z \"\$(cut -d' ' -f1 syscall_map | uniq -d)\" ]"
}

# board_list_checks [events]: the tiny recorder's catalogue; with "events",
# this kernel's tracepoints too (trace-list --events)
board_list_checks() {
	tracebox >applets.txt 2>&1
	trace-list >list.txt 2>&1
	for s in syscall-counts failed-syscalls-by-pid; do
		why=$(head -3 list.txt)
		ok "trace-list shows $s" grep -q "^  $s " list.txt
	done
	[ "${1:-}" = events ] || return 0
	trace-list --events >events.txt 2>&1
	why=$(head -3 events.txt)
	ok "trace-list --events lists this kernel's tracepoints (raw_syscalls, sched)" sh -c \
		"grep -q 'raw_syscalls:sys_enter' events.txt && grep -q 'sched:sched_switch' events.txt"
	trace-list --events 'sched:*' >events-sched.txt 2>&1
	why=$(head -3 events-sched.txt)
	ok "trace-list --events 'sched:*' lists only sched events" sh -c \
		"grep -q 'sched:sched_wakeup' events-sched.txt && ! grep -q 'raw_syscalls' events-sched.txt"
}

# board_record NAME FILE COMMAND...: record (output in FILE-record.txt),
# PASS "NAME" when the recorder exits 0
board_record() {
	name=$1 rec=$2; shift 2
	"$@" >$rec-record.txt 2>&1
	rc=$?
	why="exit $rc: $(tail -3 $rec-record.txt)"
	ok "$name" [ $rc = 0 ]
}

# board_record_checks MAGIC WHAT: the recordings the host reports: the
# workload's syscalls (a perf.data file whose first 8 bytes are MAGIC, "the
# recording is WHAT") and its failed ones
board_record_checks() {
	board_record "trace-record syscall-counts -- workload $N $M" sc \
		trace-record syscall-counts -q -o sc.data -- workload $N $M
	why=$(head -c 8 sc.data 2>&1)
	ok "the recording is $2" [ "$(head -c 8 sc.data 2>/dev/null)" = "$1" ]
	board_record "trace-record failed-syscalls-by-pid -- workload 10 $M" fs \
		trace-record failed-syscalls-by-pid -q -o fs.data -- workload 10 $M
}

# board_sched_record: sched events, switches and wake-ups of a program that sleeps
board_sched_record() {
	board_record "trace-record -e sched:sched_switch -e sched:sched_wakeup -- a sleeping loop" sw \
		trace-record -q -e sched:sched_switch -e sched:sched_wakeup -o sw.data -- \
		sh -c 'for i in 1 2 3 4 5; do usleep 10000; done'
}

# board_export: the recordings to the host (base64 tar.gz on the virtio
# console), then the verdict line
board_export() {
	port=/dev/hvc0
	if [ -e $port ] && stty -F $port raw -echo 2>/dev/null; then
		{ echo "@@ EXPORT-BEGIN"; tar -czf - . | base64; echo "@@ EXPORT-END"; } >$port
	else
		fail "export the recordings to the host" "no virtio console ($port)"
	fi
	echo "@@ DONE"
}
