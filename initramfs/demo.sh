#!/bin/sh
# demo.sh - the guest's part of make demo (tbmode=demo): record a workload
# with trace-record syscall-counts and send the recording to the host (base64
# tar on /dev/ttyS1), where scripts/tools/demo-qemu.sh reports it.
# SPDX-License-Identifier: GPL-2.0-only
out=/tmp/out
work='workload 200 20; find /usr >/dev/null; ls -lR /usr/share >/dev/null'
mkdir -p $out && cd $out || exit 1
echo "== guest: $(uname -sr), $(nproc) CPUs, tracefs syscall_map: $(wc -l </sys/kernel/tracing/syscall_map) syscalls"
echo "== guest: trace-record syscall-counts -o demo.data -- sh -c '$work'"
trace-record syscall-counts -o demo.data -- sh -c "$work" 2>&1 | sed 's/^/== guest: /'
echo "== guest: $(trace-report --header-only -i demo.data | grep '^# syscall map')"
stty -F /dev/ttyS1 raw -echo 2>/dev/null &&
	{ echo "@@ EXPORT-BEGIN"; tar -cf - demo.data | base64; echo "@@ EXPORT-END"; } >/dev/ttyS1
echo "@@ DONE"
