#!/bin/sh
# check-arm64.sh - the arm64 guest's test plan (tbmode=check on the arm64
# board): the tiny recorder records the known workload with the kernel's
# syscall_map; one "@@ PASS|FAIL|SKIP: arm64: ..." line per check, "@@ DONE"
# at the end. The board has no report applets: the recordings and the
# syscall_map go to the host (base64 tar.gz on the virtio console /dev/hvc0),
# where qemu/check.sh -a arm64 reports them with the host build.
# SPDX-License-Identifier: GPL-2.0-only
N=${N:-2000} M=${M:-300}        # the workload: N getppid calls, M failing openat()s
out=/tmp/out
map=/sys/kernel/tracing/syscall_map
mkdir -p $out && cd $out || exit 1
echo "$N $M" >workload.txt

pass() { echo "@@ PASS: arm64: $1"; }
fail() { echo "@@ FAIL: arm64: $1${2:+: $2}"; }
# ok NAME COMMAND...: PASS if the command succeeds, else FAIL with $why (then cleared)
ok() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "$why"; fi; why=; }

echo "@@ START guest $(uname -r) $(uname -m), $(nproc) CPUs"
why=$(uname -m)
ok "the guest is aarch64" [ "$(uname -m)" = aarch64 ]
why="$(nproc) CPUs"
ok "the guest has 2 CPUs" [ "$(nproc)" = 2 ]

# --- the kernel's syscall map (the patch, cross-built)
ok "tracefs has the syscall_map file" test -f $map
why=$(ls -l $map 2>&1)
ok "syscall_map is read-only (r--r-----, and a write fails)" sh -c \
	"ls -l $map | grep -q '^-r--r----- ' && ! echo 1 2>/dev/null >$map"
why="cannot read it"; cp $map syscall_map 2>/dev/null
why=$(grep -w 'getpid\|getppid\|read\|exit_group\|openat' syscall_map | tr '\n' ' ')
ok "syscall_map has the arm64 numbers: 172 getpid, 173 getppid, 63 read, 94 exit_group, 56 openat" sh -c \
	"grep -qx '172 getpid' syscall_map && grep -qx '173 getppid' syscall_map &&
	 grep -qx '63 read' syscall_map && grep -qx '94 exit_group' syscall_map &&
	 grep -qx '56 openat' syscall_map"
why="$(wc -l <syscall_map) lines"
ok "syscall_map lists 200+ syscalls, each 'NR NAME' once" sh -c \
	"[ \$(wc -l <syscall_map) -gt 200 ] && ! grep -qv '^[0-9][0-9]* [a-z0-9_]*\$' syscall_map &&
	 [ -z \"\$(cut -d' ' -f1 syscall_map | uniq -d)\" ]"

# --- the tiny recorder: what it is, its catalogue
tracebox >applets.txt 2>&1
trace-list >list.txt 2>&1
for s in syscall-counts failed-syscalls-by-pid; do
	why=$(head -3 list.txt)
	ok "trace-list shows $s" grep -q "^  $s " list.txt
done

# --- the recordings the host reports
trace-record syscall-counts -q -o sc.data -- workload $N $M >sc-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 sc-record.txt)"
ok "trace-record syscall-counts -- workload $N $M" [ $rc = 0 ]
why=$(head -c 8 sc.data 2>&1)
ok "the recording is a perf.data file (PERFILE2)" [ "$(head -c 8 sc.data 2>/dev/null)" = PERFILE2 ]
trace-record failed-syscalls-by-pid -q -o fs.data -- workload 10 $M >fs-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 fs-record.txt)"
ok "trace-record failed-syscalls-by-pid -- workload 10 $M" [ $rc = 0 ]

# --- a --call-graph dwarf profile (user registers and stack dumps): the
# host unwinds it, the board cannot (no unwinder in the tiny recorder)
trace-record -q --call-graph dwarf -e cpu-clock -c 100000 -o dw.data -- srcprog 30000000 \
	>dw-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 dw-record.txt)"
ok "trace-record --call-graph dwarf -- srcprog" [ $rc = 0 ]

# --- a module's code sampled: the host resolves its symbols (issue 23)
why=$(insmod /tbmod.ko 2>&1)
ok "insmod tbmod.ko" grep -q '^tbmod ' /proc/modules
cp /proc/kallsyms kallsyms.txt
cp /proc/modules modules.txt
trace-record -q -e cpu-clock -c 100000 -o mod.data -- sh -c 'echo 500 >/sys/module/tbmod/parameters/spin_ms' \
	>mod-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 mod-record.txt)"
ok "trace-record of 500 ms in the module's code" [ $rc = 0 ]

# --- the recordings to the host, then the verdict line
port=/dev/hvc0
if [ -e $port ] && stty -F $port raw -echo 2>/dev/null; then
	{ echo "@@ EXPORT-BEGIN"; tar -czf - . | base64; echo "@@ EXPORT-END"; } >$port
else
	fail "export the recordings to the host" "no virtio console ($port)"
fi
echo "@@ DONE"
