#!/bin/sh
# demo.sh - the main job on this host: record a short system-wide workload
# with tracepoints and print it with trace-report. (The QEMU guest takes
# over this job once the kernel rig exists.)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
tb="$top/build/tracebox"
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
echo "demo: recording 'workload 20 5' (20 getppid, 5 failing opens) with perf record"
perf record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-e sched:sched_process_exec -o "$out/perf.data" -- "$top/build/workload" 20 5
echo "demo: $tb trace-report -i $out/perf.data"
"$tb" trace-report -i "$out/perf.data"
