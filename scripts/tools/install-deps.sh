#!/bin/sh
# install-deps.sh - install, with apt-get, the Debian packages tracebox's build,
# tests and demo need. Silent when everything is there; idempotent.
set -e
PKGS="gcc make pkg-config libc6-dev libtraceevent-dev python3-dev libperl-dev
libexpat1-dev zlib1g-dev libzstd-dev libcrypt-dev time python3 libsqlite3-dev clickhouse-server
linux-perf busybox-static linux-source-6.1 file valgrind
clang clang-14 libclang-rt-14-dev
qemu-system-x86 flex bison bc libelf-dev libssl-dev cpio patch xz-utils libiberty-dev
libdw-dev liblzma-dev libbz2-dev elfutils libc6-dbg debuginfod
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm musl-tools musl-dev:arm64
gcc-arm-linux-gnueabihf libc6-dev-armhf-cross musl-dev:armhf
gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-system-misc musl-dev:s390x
chromium"
# the arm64 board: the cross compilers, its QEMU, and (initramfs/busybox-arm64.sh)
# busybox-static:arm64 fetched with apt-get download, which needs arm64 lists;
# the 32-bit arm board: the same for armhf (busybox-arm64.sh armhf); the
# big-endian s390x board: the same for s390x (qemu-system-misc has
# qemu-system-s390x)
# chromium: the pictures' tests drive Debian's headless Chromium (tests/tools/browser.py)

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing (run as root, or install them)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
for a in arm64 armhf s390x; do
	case $missing in *:$a*)
		dpkg --print-foreign-architectures | grep -qx $a || dpkg --add-architecture $a ;;
	esac
done
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
