#!/bin/sh
# demo-qemu.sh - the main demo: build what is missing (the patched kernel,
# the initramfs), boot the guest in QEMU, record a workload there with
# `trace-record syscall-counts`, and print `trace-report syscall-counts` of
# that recording here, with the host build. Without QEMU or the kernel
# source, it says so and runs the host demo (scripts/tools/demo.sh).
# SPDX-License-Identifier: GPL-2.0-only
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
cd "$top"
BUILD=${BUILD:-build}
export BUILD
out=$BUILD/qemu-demo

why=
command -v qemu-system-x86_64 >/dev/null || why="qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -r /usr/src/linux-source-6.1.tar.xz ] || why="the kernel source is not installed (apt-get install linux-source-6.1)"
if [ -n "$why" ]; then
	echo "demo: $why; running the demo on this host instead"
	exec scripts/tools/demo.sh
fi

if [ ! -f "$cache/bzImage" ]; then
	echo "demo: the patched kernel is not built yet: building it now, once (several minutes;"
	echo "      later runs reuse $cache/bzImage)"
fi
make -s --no-print-directory kernel
make -s --no-print-directory BUILD="$BUILD" initramfs    # says so when it packs a new one

echo "demo: booting the guest (QEMU, 2 CPUs; the console goes to $out/console.log)"
qemu/run.sh -m demo -q -t 300 -o "$out" | sed -n 's/^@@ //p; /^== /p' | grep -v '^DONE$\|^EXPORT' || true
[ -f "$out/files/demo.data" ] || { echo "demo: the guest sent no recording back (see $out/console.log)" >&2; exit 1; }

echo
echo "== host: $BUILD/trace-report -i $out/files/demo.data syscall-counts"
"$BUILD/trace-report" --header-only -i "$out/files/demo.data" | grep '^# \(os release\|syscall map\)'
"$BUILD/trace-report" -i "$out/files/demo.data" syscall-counts
