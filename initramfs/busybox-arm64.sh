#!/bin/sh
# busybox-arm64.sh - fetch Debian's busybox-static:arm64 for the arm64 guest,
# once, into the cache folder ($TRACEBOX_CACHE/busybox-arm64/busybox), with
# apt-get download and dpkg -x: installing it would replace the amd64
# busybox-static the x86 initramfs takes.
# SPDX-License-Identifier: GPL-2.0-only
# Needs the arm64 package lists: dpkg --add-architecture arm64 && apt-get update
# (scripts/tools/install-deps.sh does it).
set -eu
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
dest=$cache/busybox-arm64
die() { echo "busybox-arm64: error: $*" >&2; exit 1; }
[ -x "$dest/busybox" ] && exit 0
command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "needs apt-get and dpkg (Debian)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
apt-get download -q busybox-static:arm64 >download.log 2>&1 || {
	cat download.log >&2
	die "apt-get download busybox-static:arm64 failed (arm64 package lists: dpkg --add-architecture arm64 && apt-get update)"
}
dpkg -x busybox-static_*_arm64.deb x
[ -f x/bin/busybox ] || die "no bin/busybox in $(ls *.deb)"
mkdir -p "$dest"
cp x/bin/busybox "$dest/busybox.tmp"
mv "$dest/busybox.tmp" "$dest/busybox"
echo "busybox-arm64: $dest/busybox from $(ls *.deb) ($(du -k "$dest/busybox" | cut -f1) KiB)"
