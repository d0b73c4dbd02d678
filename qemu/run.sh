#!/bin/sh
# run.sh - boot the patched kernel with the initramfs in QEMU (2 CPUs, TCG
# unless KVM works): the serial console to the terminal and a log file, a hard
# time-out, and the guest's verdict (its "@@ PASS/FAIL" lines) as exit status.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: qemu/run.sh [-a x86_64|arm64|arm|s390x] [-m check|demo|shell] [-t SECONDS] [-o DIR] [-q]
#   -a ARCH  the board (default x86_64): arm64 boots ~/.cache/tracebox/Image-arm64
#            with $BUILD/initramfs-arm64.cpio.gz in qemu-system-aarch64 -M virt
#            -cpu cortex-a57 (TCG), the exports on a virtio console; arm (armhf)
#            boots zImage-arm with initramfs-arm.cpio.gz in qemu-system-arm
#            -M virt,highmem=off -cpu cortex-a15 (TCG), the same way; s390x
#            boots bzImage-s390 with initramfs-s390x.cpio.gz in
#            qemu-system-s390x -M s390-ccw-virtio -cpu max (TCG), the SCLP
#            console, the exports on a virtio console on virtio-ccw
#   -m MODE  what the guest's /init runs (default shell): check = the test
#            plan, demo = the demo recording, shell = an interactive shell
#   -t S     hard time-out, QEMU killed after S seconds (default 300; shell: none)
#   -o DIR   console.log and the files the guest exported (DIR/files/)
#            (default $BUILD/qemu-MODE, $BUILD/qemu-ARCH-MODE for the others)
#   -q       console to the log file only (the terminal gets the "@@ " and "== " lines)
# env: BUILD (the build folder, default build), KERNEL (default
#      ~/.cache/tracebox/bzImage), INITRD (default $BUILD/initramfs.cpio.gz),
#      QEMU_ACCEL=auto|tcg|kvm (default auto: KVM if a probe boot, made once and
#      remembered in ~/.cache/tracebox/kvm-probe, shows it works, else TCG),
#      QEMU_MEM (default 512M), GUEST_APPEND (more kernel arguments, e.g. loglevel=8)
# exit: 0 the guest finished (check: no FAIL line), 1 a FAIL line,
#       2 no verdict (the guest crashed or stopped early), 124 time-out.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
mode=shell timeout= out= quiet= arch=x86_64
while getopts a:m:t:o:q opt; do
	case $opt in
	a) arch=$OPTARG ;;
	m) mode=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) out=$OPTARG ;;
	q) quiet=1 ;;
	*) sed -n '6,26s/^# \{0,1\}//p' "$0" >&2; exit 64 ;;
	esac
done
case $mode in check|demo|shell) ;; *) echo "qemu: unknown mode '$mode'" >&2; exit 64 ;; esac
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
case $arch in
x86_64)	kernel=${KERNEL:-$cache/bzImage} initrd=${INITRD:-$build/initramfs.cpio.gz}
	out=${out:-$build/qemu-$mode} qemu=qemu-system-x86_64 pkg=qemu-system-x86
	# no_timer_check: under TCG on a loaded host the 8254 timer check fails (a panic)
	console=ttyS0 kargs=no_timer_check exp=ttyS1.out ;;
arm64|aarch64) arch=arm64
	kernel=${KERNEL:-$cache/Image-arm64} initrd=${INITRD:-$build/initramfs-arm64.cpio.gz}
	out=${out:-$build/qemu-arm64-$mode} qemu=qemu-system-aarch64 pkg=qemu-system-arm
	console=ttyAMA0 kargs= exp=hvc0.out ;;
arm|armhf) arch=arm
	kernel=${KERNEL:-$cache/zImage-arm} initrd=${INITRD:-$build/initramfs-arm.cpio.gz}
	out=${out:-$build/qemu-arm-$mode} qemu=qemu-system-arm pkg=qemu-system-arm
	console=ttyAMA0 kargs= exp=hvc0.out ;;
s390x|s390) arch=s390x
	kernel=${KERNEL:-$cache/bzImage-s390} initrd=${INITRD:-$build/initramfs-s390x.cpio.gz}
	out=${out:-$build/qemu-s390x-$mode} qemu=qemu-system-s390x pkg=qemu-system-misc
	console=ttysclp0 kargs= exp=hvc0.out ;;
*)	echo "qemu: unknown board '$arch' (x86_64, arm64, arm or s390x)" >&2; exit 64 ;;
esac
command -v $qemu >/dev/null || { echo "qemu: $qemu not found (apt-get install $pkg)" >&2; exit 2; }
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "qemu: $f not found (make kernel initramfs)" >&2; exit 2; }
done
mkdir -p "$out"
exec 9>"$out.lock"    # one guest at a time per output folder
flock -n 9 || { echo "qemu: waiting for the other guest using $out" >&2; flock 9; }
rm -rf "$out"; mkdir -p "$out/files"

# KVM where it works; on some hosts a KVM guest hangs before its first line,
# so "auto" boots a probe once (10 s at most) and remembers the answer.
probe_kvm() {
	{ : <>/dev/kvm; } 2>/dev/null || return 1
	cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/kvm-probe
	key="$(uname -r) $($qemu --version | head -1)"
	if [ "$(sed -n 1p "$cache" 2>/dev/null)" != "$key" ]; then
		echo "qemu: probing KVM (once; up to 10 s)" >&2
		timeout -k 2 10 $qemu -accel kvm -smp 1 -m 256M -no-reboot -display none -monitor none \
			-kernel "$kernel" -initrd "$initrd" -append "console=ttyS0 tbmode=probe panic=-1" \
			-serial file:"$out/kvm-probe.log" </dev/null >/dev/null 2>&1 &&
			grep -q 'Linux version' "$out/kvm-probe.log" && v=works || v=hangs
		mkdir -p "$(dirname "$cache")" && printf '%s\n%s\n' "$key" "$v" >"$cache"
	fi
	[ "$(sed -n 2p "$cache")" = works ]
}
accel=${QEMU_ACCEL:-auto}
[ $arch = x86_64 ] || accel=tcg    # another arch than the host's: always emulated
case $accel in
auto)	if probe_kvm; then accel=kvm; else accel=tcg; fi ;;
kvm)	probe_kvm || echo "qemu: KVM hangs or is missing here; asked for it anyway" >&2 ;;
esac
[ "$accel" = tcg ] && accel=tcg,thread=multi
append="console=$console ${kargs:+$kargs }tbmode=$mode panic=-1 ${GUEST_APPEND:-}"
[ "$mode" = shell ] || append="$append quiet"
if [ $arch != x86_64 ]; then
	# the virt machine has one UART for us: the exports go to a virtio console
	# (arm: highmem=off, the 32-bit kernel without LPAE reaches no high memory)
	# (s390x: the SCLP console is -serial's, the virtio console is on virtio-ccw)
	if [ $arch = arm64 ]; then set -- -M virt -cpu cortex-a57
	elif [ $arch = s390x ]; then set -- -M s390-ccw-virtio -cpu max
	else set -- -M virt,highmem=off -cpu cortex-a15; fi
	vser=virtio-serial-device
	[ $arch = s390x ] && vser=virtio-serial-ccw
	set -- "$@" -smp 2 -device $vser \
		-chardev file,id=exp,path="$out/$exp" -device virtconsole,chardev=exp
else
	# two sockets of one core: SeaBIOS's MP table (no ACPI in the guest) lists packages
	set -- -smp 2,sockets=2,cores=1
fi
set -- "$@" -accel "$accel" -m "${QEMU_MEM:-512M}" -no-reboot -display none \
	-kernel "$kernel" -initrd "$initrd" -append "$append"
if [ "$mode" = shell ]; then
	# Ctrl-A X quits, Ctrl-A C switches to the QEMU monitor
	set -- "$@" -chardev stdio,id=con,mux=on,signal=off,logfile="$out/console.log" \
		-serial chardev:con -mon chardev=con
	# x86: the exports on the second serial port (ttyS1)
	[ $arch != x86_64 ] || set -- "$@" -serial file:"$out/$exp"
	echo "qemu: booting the guest shell (Ctrl-A X quits); log: $out/console.log"
	${timeout:+timeout --foreground -k 5 "$timeout"} $qemu "$@"
	exit $?
fi

# check, demo: no terminal input; the console goes to the log, and to the
# terminal unless -q (then only the marked lines do)
set -- "$@" -monitor none -serial file:"$out/console.log"
[ $arch != x86_64 ] || set -- "$@" -serial file:"$out/$exp"
: >"$out/console.log"
timeout -k 5 "${timeout:-300}" $qemu "$@" </dev/null >"$out/qemu.out" 2>&1 &
qpid=$!
if [ -n "$quiet" ]; then
	tail -n +1 -f "$out/console.log" --pid=$qpid | tr -d '\r' | grep --line-buffered '^@@ \|^== '
else
	tail -n +1 -f "$out/console.log" --pid=$qpid | tr -d '\r'
fi
wait $qpid
rc=$?
[ -s "$out/qemu.out" ] && sed 's/^/qemu: /' "$out/qemu.out" >&2

# the guest's exported files: a base64 tar.gz between two marker lines
if grep -q '^@@ EXPORT-END' "$out/$exp" 2>/dev/null; then
	tr -d '\r' <"$out/$exp" | sed -n '/^@@ EXPORT-BEGIN/,/^@@ EXPORT-END/{/^@@/d;p}' |
		base64 -d | tar -xzf - -C "$out/files" || echo "qemu: the guest's export is damaged" >&2
fi

log=$(tr -d '\r' <"$out/console.log")
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "qemu: FAIL: time-out after ${timeout:-300} s (log: $out/console.log)" >&2
	exit 124
fi
if ! echo "$log" | grep -q '^@@ DONE'; then
	echo "qemu: FAIL: the guest ended without a verdict (log: $out/console.log):" >&2
	echo "$log" | tail -15 >&2
	exit 2
fi
p=$(echo "$log" | grep -c '^@@ PASS') f=$(echo "$log" | grep -c '^@@ FAIL') s=$(echo "$log" | grep -c '^@@ SKIP')
[ "$mode" = check ] && echo "qemu: guest verdict: $p passed, $f failed, $s skipped"
[ "$f" = 0 ]
