#!/bin/sh
# demo-qemu.sh - the main demo: build what is missing (the patched kernel,
# the initramfs), boot the guest in QEMU, record a workload there with
# `trace-record syscall-counts`, and print `trace-report syscall-counts` of
# that recording here, with the host build. Without QEMU or the kernel
# source, it says so and runs the host demo (scripts/tools/demo.sh).
# ARCH=arm64 (make demo ARCH=arm64): the arm64 board, emulated (TCG), whose
# tiny recorder records there while this host reports; ARCH=arm (armhf): the
# 32-bit arm board, the same way; ARCH=s390x: the big-endian s390x board,
# whose recording this host reads in the other byte order.
# SPDX-License-Identifier: GPL-2.0-only
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
cd "$top"
BUILD=${BUILD:-build}
export BUILD
case ${ARCH:-x86_64} in
arm64|aarch64)
	board=arm64 out=$BUILD/qemu-arm64-demo image=$cache/Image-arm64 timeout=600
	qemu=qemu-system-aarch64 pkg=qemu-system-arm ;;
arm|armhf)
	board=arm out=$BUILD/qemu-arm-demo image=$cache/zImage-arm timeout=600
	qemu=qemu-system-arm pkg=qemu-system-arm ;;
s390x|s390)
	board=s390x out=$BUILD/qemu-s390x-demo image=$cache/bzImage-s390 timeout=600
	qemu=qemu-system-s390x pkg=qemu-system-misc ;;
*)	board=x86_64 out=$BUILD/qemu-demo image=$cache/bzImage timeout=300
	qemu=qemu-system-x86_64 pkg=qemu-system-x86 ;;
esac

why=
command -v $qemu >/dev/null || why="$qemu is not installed (apt-get install $pkg)"
[ -r /usr/src/linux-source-6.1.tar.xz ] || why="the kernel source is not installed (apt-get install linux-source-6.1)"
case $board in
arm64) tools="aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu aarch64-linux-musl-gcc:musl-dev:arm64" ;;
arm) tools="arm-linux-gnueabihf-gcc:gcc-arm-linux-gnueabihf arm-linux-musleabihf-gcc:musl-dev:armhf" ;;
s390x) tools="s390x-linux-gnu-gcc:gcc-s390x-linux-gnu s390x-linux-musl-gcc:musl-dev:s390x" ;;
*) tools= ;;
esac
for t in $tools; do
	command -v ${t%%:*} >/dev/null || why="${t%%:*} is not installed (apt-get install ${t#*:})"
done
if [ -n "$why" ]; then
	echo "demo: $why; running the demo on this host instead"
	exec scripts/tools/demo.sh
fi

if [ ! -f "$image" ]; then
	echo "demo: the patched $board kernel is not built yet: building it now, once (several minutes;"
	echo "      later runs reuse $image)"
fi
if [ $board = s390x ]; then
	make -s --no-print-directory kernel-s390
	make -s --no-print-directory BUILD="$BUILD" initramfs-s390x
elif [ $board != x86_64 ]; then
	make -s --no-print-directory kernel-$board
	make -s --no-print-directory BUILD="$BUILD" initramfs-$board
else
	make -s --no-print-directory kernel
	make -s --no-print-directory BUILD="$BUILD" initramfs    # says so when it packs a new one
fi

echo "demo: booting the $board guest (QEMU, 2 CPUs; the console goes to $out/console.log)"
qemu/run.sh -a $board -m demo -q -t $timeout -o "$out" | sed -n 's/^@@ //p; /^== /p' |
	grep -v '^DONE$\|^EXPORT' || true
[ -f "$out/files/demo.data" ] || { echo "demo: the guest sent no recording back (see $out/console.log)" >&2; exit 1; }

echo
echo "== host: $BUILD/trace-report -i $out/files/demo.data syscall-counts"
"$BUILD/trace-report" --header-only -i "$out/files/demo.data" | grep '^# \(os release\|arch\|syscall map\)'
"$BUILD/trace-report" -i "$out/files/demo.data" syscall-counts
