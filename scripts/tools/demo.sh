#!/bin/sh
# demo.sh - the main job on this host: record a short workload with
# trace-record, print its events as perf script would, then the canned
# syscall-counts report with syscall names. (The QEMU guest takes over
# this job once the kernel rig exists.)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/build"
out=${DEMO_DIR:-/tmp/tracebox-demo}
mkdir -p "$out"

if [ "$(id -u)" != 0 ]; then
	echo "demo: recording tracepoints needs root" >&2
	exit 1
fi
if ! awk '$3 == "tracefs"' /proc/mounts | grep -q . ; then
	mkdir -p /tmp/tracebox-tracefs
	mount -t tracefs nodev /tmp/tracebox-tracefs
fi
echo "== trace-record: 'workload 20 5' (20 getppid calls, 5 failing opens)"
"$bin/trace-record" -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-o "$out/perf.data" -- "$bin/workload" 20 5
echo
echo "== trace-report -i $out/perf.data (the last 12 events)"
"$bin/trace-report" -i "$out/perf.data" | tail -12
echo
echo "== trace-report syscall-counts"
"$bin/trace-report" -i "$out/perf.data" syscall-counts
