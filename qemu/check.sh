#!/bin/sh
# check.sh - make qemu-check: run the guest's test plan in QEMU, then check on
# the host what the guest sent back: its recordings, reported by the host
# build, give the same reports; its syscall_map agrees with syscall_64.tbl.
# With -a arm64, the arm64 board (qemu/host-arm64.sh has the host's checks);
# with -a arm, the 32-bit armhf board (qemu/host-arm.sh); with -a s390x, the
# big-endian s390x board (qemu/host-s390x.sh).
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: qemu/check.sh [-a x86_64|arm64|arm|s390x] [-t SECONDS]   (default
#        time-out 300 s for the x86 guest, 600 s for the emulated ones)
#        qemu/check.sh -r BOARD...   prints those of the boards whose packages
#        are installed (make qemu-check builds them first: make boards)
# env:   BUILD  the build folder with tracebox and the initramfs (default build)
# Prints the guest's "@@ PASS/FAIL/SKIP" lines and the host's, then a total;
# exits 0 only if the guest reached its end and nothing failed. A
# cross-built board builds what it lacks first (make boards QEMU_BOARDS=arm64,
# qemu/host-board.sh); a missing package makes it one SKIP line with the
# reason, and exit 0; a failed build one FAIL line.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
arch=x86_64
. "$top/qemu/host-board.sh"
if [ "${1:-}" = -r ]; then
	# the boards of the list whose packages are there (make qemu-check builds them)
	shift
	ready=
	for b; do
		case $b in
		arm64|arm|s390x) . "$top/qemu/host-$b.sh"; [ -z "$(board_missing $b)" ] || continue ;;
		esac
		ready="${ready:+$ready }$b"
	done
	echo "$ready"
	exit 0
fi
[ "${1:-}" = -a ] && { arch=$2; shift 2; }
build=${BUILD:-build}
. "$top/qemu/host-kmod.sh"
case $arch in
x86_64) ;;
arm64|arm|s390x)
	. "$top/qemu/host-$arch.sh"
	board_prepare $arch "$build"
	case $? in 0) ;; 1) exit 0 ;; *) exit 1 ;; esac ;;
*)	echo "qemu-check: unknown board '$arch' (x86_64, arm64, arm or s390x)" >&2; exit 64 ;;
esac
case $build in /*) ;; *) build=$top/$build ;; esac
out=$build/qemu-check
[ $arch = x86_64 ] || out=$build/qemu-$arch-check
files=$out/files
tracebox=$build/tracebox
tbl=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}/linux-source-6.1/arch/x86/entry/syscalls/syscall_64.tbl
start=$(date +%s)
mkdir -p "$build"
exec 8>"$out.check.lock"    # one qemu-check at a time in this tree
flock -n 8 || { echo "qemu-check: waiting for another qemu-check in this tree"; flock 8; }

[ $arch = x86_64 ] || set -- -t 600 "$@"
BUILD=$build "$top/qemu/run.sh" -a $arch -m check -q -o "$out" "$@"
rc=$?
host=host label=
[ $arch = x86_64 ] || host="$arch: host" label=" $arch"
pass() { echo "@@ PASS: $host: $1"; }
fail() { echo "@@ FAIL: $host: $1${2:+: $2}"; }

{
case $rc in
0|1) ;;
124) fail "the guest finished its plan" "QEMU was stopped at the time-out" ;;
*) fail "the guest finished its plan" "it ended without its last line (exit $rc)" ;;
esac
# the module recording: the x86 and arm64 boards (the arm and s390x boards have none)
[ $arch != arm ] && [ $arch != s390x ] && { [ -f "$files/mod.data" ] || [ -f "$files/sc.data" ]; } && kmod_host_checks
if [ $arch != x86_64 ]; then
	${arch}_host_checks
elif [ -f "$files/sc.data" ]; then
	# the same report from the host build, byte for byte
	# (Perl's hash order differs per process: its report is compared sorted)
	for r in "sc syscall-counts" "fs failed-syscalls-by-pid" "fp failed-syscalls"; do
		set -- $r
		[ -f "$files/$1.data" ] || continue
		"$tracebox" trace-report -i "$files/$1.data" "$2" >"$out/host-$1-report.txt" 2>"$out/host-$1.err"
		if [ $1 = fp ]; then
			sort -o "$out/host-$1-report.txt" "$out/host-$1-report.txt"
			sort -o "$files/$1-report.txt" "$files/$1-report.txt"
		fi
		if cmp -s "$files/$1-report.txt" "$out/host-$1-report.txt"; then
			pass "the guest's $2 recording, reported by the host build: the same report"
		else
			fail "the guest's $2 recording on the host" \
				"$(diff "$files/$1-report.txt" "$out/host-$1-report.txt" | head -5; head -3 "$out/host-$1.err")"
		fi
	done
	read -r N M <"$files/workload.txt"
	n=$(awk '$1 == "getppid" { print $2 }' "$out/host-sc-report.txt")
	[ "$n" = "$N" ] && pass "host report: getppid $N" || fail "host report: getppid $N" "got '$n'"

	# syscall_map against the table the kernel was built from: each line
	# "NR NAME" is a 64-bit row NR whose entry point is sys_NAME
	if [ -f "$tbl" ]; then
		bad=$(awk 'NR == FNR { if ($2 == "common" || $2 == "64") { e = $4; sub(/^sys_/, "", e); t[$1] = e }; next }
			!($1 in t) || t[$1] != $2 { print $0 " (table: " t[$1] ")" }' "$tbl" "$files/syscall_map")
		[ -z "$bad" ] && pass "syscall_map agrees with syscall_64.tbl ($(wc -l <"$files/syscall_map") syscalls)" ||
			fail "syscall_map disagrees with syscall_64.tbl" "$(echo "$bad" | head -5)"
	else
		fail "syscall_map against syscall_64.tbl" "$tbl not found (make kernel)"
	fi
else
	fail "the guest's recordings reached the host" "nothing in $files"
fi
} | tee "$out/host.txt"

p=$(grep -c '^@@ PASS' "$out/console.log" "$out/host.txt" 2>/dev/null | awk -F: '{ s += $2 } END { print s }')
f=$(grep -c '^@@ FAIL' "$out/console.log" "$out/host.txt" 2>/dev/null | awk -F: '{ s += $2 } END { print s }')
s=$(grep -c '^@@ SKIP' "$out/console.log" 2>/dev/null | awk -F: '{ s += $NF } END { print s }')
echo "qemu-check$label: $p passed, $f failed, $s skipped in $(($(date +%s) - start)) s (logs: $out)"
[ $rc = 0 ] && [ "$f" = 0 ]
