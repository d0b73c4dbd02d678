#!/bin/sh
# busybox-arm64.sh - fetch Debian's busybox-static:arm64 for the arm64 guest,
# once, into the cache folder ($TRACEBOX_CACHE/busybox-arm64/busybox), with
# apt-get download and dpkg -x: installing it would replace the amd64
# busybox-static the x86 initramfs takes.
# SPDX-License-Identifier: GPL-2.0-only
# usage: initramfs/busybox-arm64.sh [DEBIAN-ARCH]   (default arm64; armhf for
#        the 32-bit board: $TRACEBOX_CACHE/busybox-armhf/busybox; s390x for the
#        big-endian one)
# Needs that arch's package lists: dpkg --add-architecture arm64 && apt-get update
# (scripts/tools/install-deps.sh does it).
set -eu
arch=${1:-arm64}
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
dest=$cache/busybox-$arch
die() { echo "busybox-$arch: error: $*" >&2; exit 1; }
[ -x "$dest/busybox" ] && exit 0
command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "needs apt-get and dpkg (Debian)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
apt-get download -q busybox-static:$arch >download.log 2>&1 || {
	cat download.log >&2
	die "apt-get download busybox-static:$arch failed ($arch package lists: dpkg --add-architecture $arch && apt-get update)"
}
dpkg -x busybox-static_*_$arch.deb x
[ -f x/bin/busybox ] || die "no bin/busybox in $(ls *.deb)"
mkdir -p "$dest"
cp x/bin/busybox "$dest/busybox.tmp"
mv "$dest/busybox.tmp" "$dest/busybox"
echo "busybox-$arch: $dest/busybox from $(ls *.deb) ($(du -k "$dest/busybox" | cut -f1) KiB)"
