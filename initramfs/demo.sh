#!/bin/sh
# demo.sh - the guest's part of make demo (tbmode=demo): record a workload
# with trace-record syscall-counts and send the recording to the host (base64
# tar.gz on /dev/ttyS1, or the virtio console /dev/hvc0 of the arm64 board),
# where scripts/tools/demo-qemu.sh reports it.
# SPDX-License-Identifier: GPL-2.0-only
out=/tmp/out
work='workload 200 20; find /usr >/dev/null; ls -lR /usr >/dev/null'
mkdir -p $out && cd $out || exit 1
echo "== guest: $(uname -srm), $(nproc) CPUs, tracefs syscall_map: $(wc -l </sys/kernel/tracing/syscall_map) syscalls"
echo "== guest: trace-record syscall-counts -o demo.data -- sh -c '$work'"
trace-record syscall-counts -o demo.data -- sh -c "$work" 2>&1 | sed 's/^/== guest: /'
# the tiny recorder of the arm64 board has no trace-report: the host reads the header
command -v trace-report >/dev/null &&
	echo "== guest: $(trace-report --header-only -i demo.data | grep '^# syscall map')"
port=/dev/ttyS1
[ -e /dev/hvc0 ] && port=/dev/hvc0
stty -F $port raw -echo 2>/dev/null &&
	{ echo "@@ EXPORT-BEGIN"; tar -czf - demo.data | base64; echo "@@ EXPORT-END"; } >$port
echo "@@ DONE"
