#!/bin/sh
# check.sh - the guest's test plan (tbmode=check): one "@@ PASS|FAIL|SKIP: ..."
# line per check on the console, then "@@ DONE"; the recordings, reports and
# the kernel's syscall_map go to the host (base64 tar.gz on /dev/ttyS1:
# gzipped, as an emulated UART on a loaded host is slow), where
# qemu/check.sh reports them again with the host build.
# SPDX-License-Identifier: GPL-2.0-only
N=${N:-2000} M=${M:-300}        # the workload: N getppid calls, M failing open()s
out=/tmp/out
map=/sys/kernel/tracing/syscall_map
share=/usr/share/tracebox
no_perl="no scripts/perl in the initramfs (see the Perl lines of initramfs/files.list)"
mkdir -p $out && cd $out || exit 1
echo "$N $M" >workload.txt

pass() { echo "@@ PASS: $1"; }
fail() { echo "@@ FAIL: $1${2:+: $2}"; }
skip() { echo "@@ SKIP: $1: $2"; }
# ok NAME COMMAND...: PASS if the command succeeds, else FAIL with $why (then cleared)
ok() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "$why"; fi; why=; }
# count FILE NAME: the count printed after NAME in a report's "NAME  COUNT" lines
count() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

echo "@@ START guest $(uname -r), $(nproc) CPUs"

# --- the kernel's syscall map (the patch)
ok "tracefs has the syscall_map file" test -f $map
why=$(ls -l $map 2>&1)
ok "syscall_map is read-only (r--r-----, and a write fails)" sh -c \
	"ls -l $map | grep -q '^-r--r----- ' && ! echo 1 2>/dev/null >$map"
why="cannot read it"; cp $map syscall_map 2>/dev/null
ok "syscall_map: 39 getpid, 110 getppid, 0 read, 231 exit_group" sh -c \
	"grep -qx '39 getpid' syscall_map && grep -qx '110 getppid' syscall_map &&
	 grep -qx '0 read' syscall_map && grep -qx '231 exit_group' syscall_map"
why="$(wc -l <syscall_map) lines"
ok "syscall_map lists 200+ syscalls, each 'NR NAME' once" sh -c \
	"[ \$(wc -l <syscall_map) -gt 200 ] && ! grep -qv '^[0-9][0-9]* [a-z0-9_]*\$' syscall_map &&
	 [ -z \"\$(cut -d' ' -f1 syscall_map | uniq -d)\" ]"

# --- trace-list: the canned scripts of both languages
trace-list >list.txt 2>&1
for s in syscall-counts syscall-counts-by-pid failed-syscalls-by-pid check-perf-trace; do
	why=$(head -3 list.txt)
	ok "trace-list shows $s" grep -q "^  $s " list.txt
done
if [ -d $share/scripts/perl ]; then
	for s in failed-syscalls rw-by-pid rw-by-file wakeup-latency workqueue-stats perl:check-perf-trace; do
		why=$(cat list.txt)
		ok "trace-list shows the Perl script $s" grep -q "^  $s " list.txt
	done
else
	skip "trace-list shows the Perl scripts" "$no_perl"
fi

# --- syscall-counts (Python): names from the kernel's map, the exact counts
trace-record syscall-counts -q -o sc.data -- workload $N $M >sc-record.txt 2>&1
rc=$?
why="exit $rc: $(tail -3 sc-record.txt)"
ok "trace-record syscall-counts -- workload $N $M" [ $rc = 0 ]
trace-report --header-only -i sc.data >sc-header.txt 2>&1
why=$(grep 'syscall map' sc-header.txt || tail -2 sc-header.txt)
ok "the recording's syscall map came from the kernel" \
	grep -q '^# syscall map : [0-9]* entries for x86_64, from kernel (tracefs syscall_map)' sc-header.txt
trace-report -i sc.data syscall-counts >sc-report.txt 2>sc-report.err
rc=$?
why="exit $rc: $(tail -3 sc-report.err)"
ok "trace-report syscall-counts runs" [ $rc = 0 ]
why="got '$(count sc-report.txt getppid)'"
ok "syscall-counts: getppid $N (a name from the kernel's map)" [ "$(count sc-report.txt getppid)" = $N ]
why="got '$(count sc-report.txt open)'"
ok "syscall-counts: open $M" [ "$(count sc-report.txt open)" = $M ]
# a number is left only for a syscall the kernel has no metadata for
why=$(awk 'NR == FNR { m[$1]; next } $1 ~ /^[0-9]+$/ && ($1 in m) { print $1 }' syscall_map sc-report.txt)
ok "syscall-counts: every syscall in the kernel's map printed by name" [ -z "$why" ]

# --- failed-syscalls-by-pid (Python)
trace-record failed-syscalls-by-pid -q -o fs.data -- workload 10 $M >fs-record.txt 2>&1
trace-report -i fs.data failed-syscalls-by-pid >fs-report.txt 2>fs-report.err
rc=$?
why="exit $rc: $(tail -3 fs-report.err)"
ok "trace-report failed-syscalls-by-pid runs" [ $rc = 0 ]
got=$(awk '/^workload \[/ { w = 1; next } /^[^ ]/ { w = 0 }
	w && /syscall: open/ { o = 1; next } w && /syscall:/ { o = 0 }
	w && o && /err = ENOENT/ { print $NF }' fs-report.txt)
why="got '$got': $(grep -A3 '^workload' fs-report.txt)"
ok "failed-syscalls-by-pid: workload, open, ENOENT $M" [ "$got" = $M ]

# --- failed-syscalls (Perl)
if [ -d $share/scripts/perl ]; then
	trace-record failed-syscalls -q -o fp.data -- workload 10 $M >fp-record.txt 2>&1
	trace-report -i fp.data failed-syscalls >fp-report.txt 2>fp-report.err
	rc=$?
	why="exit $rc: $(tail -3 fp-report.err)"
	ok "trace-report failed-syscalls (Perl) runs" [ $rc = 0 ]
	why="got '$(count fp-report.txt workload)'"
	ok "failed-syscalls (Perl): workload $M" [ "$(count fp-report.txt workload)" = $M ]
	got=$(awk '$1 == "open" && $2 == "ENOENT" { print $3 }' fp-report.txt)
	why="got '$got'"
	ok "failed-syscalls (Perl): open ENOENT $M, by name from the kernel's map" [ "$got" = $M ]
else
	skip "failed-syscalls (Perl)" "$no_perl"
fi

# --- check-perf-trace: the whole Python interface on softirq and kmem events
trace-record check-perf-trace -q -o cpt.data -- sh -c 'sleep 1; cat /proc/self/status' >cpt-record.txt 2>&1
trace-report -i cpt.data check-perf-trace >cpt-report.txt 2>cpt-report.err
rc=$?
why="exit $rc: $(tail -3 cpt-report.err)"
ok "check-perf-trace runs" [ $rc = 0 ]
why=$(head -3 cpt-report.txt; tail -3 cpt-report.txt)
ok "check-perf-trace: trace_begin, softirq symbols, kmalloc flags, unhandled kfree, trace_end" sh -c \
	"grep -q '^trace_begin' cpt-report.txt && grep -q '^irq__softirq_entry .* vec=[A-Z]' cpt-report.txt &&
	 grep -q '^kmem__kmalloc .* gfp_flags=[A-Z_]' cpt-report.txt &&
	 grep -q '^kmem__kfree  *[0-9]' cpt-report.txt && tail -1 cpt-report.txt | grep -q '^trace_end'"
if [ -d $share/scripts/perl ]; then
	trace-report -i cpt.data perl:check-perf-trace >cptp-report.txt 2>cptp-report.err
	rc=$?
	why="exit $rc: $(tail -3 cptp-report.err)"
	ok "perl:check-perf-trace runs" [ $rc = 0 ]
	why=$(head -3 cptp-report.txt; tail -3 cptp-report.txt)
	ok "perl:check-perf-trace: softirq symbols, kmalloc flags, the kernel's syscall map, trace_end" sh -c \
		"grep -q '^irq::softirq_entry .* vec=[A-Z]' cptp-report.txt &&
		 grep -q '^kmem::kmalloc .* gfp_flags=[A-Z_]' cptp-report.txt &&
		 grep -q '^  syscall map: [1-9][0-9]* names' cptp-report.txt && tail -1 cptp-report.txt | grep -q '^trace_end'"
else
	skip "perl:check-perf-trace" "$no_perl"
fi

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

# --- the recordings and reports to the host, then the verdict line
if stty -F /dev/ttyS1 raw -echo 2>/dev/null; then
	{ echo "@@ EXPORT-BEGIN"; tar -czf - . | base64; echo "@@ EXPORT-END"; } >/dev/ttyS1
else
	fail "export the recordings to the host" "no second serial port (/dev/ttyS1)"
fi
echo "@@ DONE"
