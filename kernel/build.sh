#!/bin/sh
# build.sh - unpack Debian's linux-source-6.1 outside the repository, apply
# kernel/*.patch, configure tinyconfig + the arch's fragment, build the image.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: kernel/build.sh [headers]   (make kernel, make kernel-arm64 run it)
#   headers  only the arch's UAPI headers (make headers), for programs
#            cross-built against them: $TRACEBOX_CACHE/headers-ARCH/usr/include
# env:   KARCH           a board of kernel/boards: x86_64 (default): tinyconfig +
#                        kernel/tracebox.config, objects in kbuild/, the result
#                        $TRACEBOX_CACHE/bzImage; arm64 (Image-arm64), arm (the
#                        32-bit armhf board, zImage-arm): cross-built from
#                        tinyconfig + their fragment, objects in kbuild-KARCH/
#        TRACEBOX_CACHE  cache folder (default ~/.cache/tracebox): the tree, shared
#                        by both arches, is $TRACEBOX_CACHE/linux-source-6.1
#        KERNEL_TAR      the source tarball (default /usr/src/linux-source-6.1.tar.xz)
#        JOBS            parallel jobs (default: nproc + 1)
# A run with nothing changed (same tarball, series, fragment) does nothing.
# A changed series is reversed and re-applied; a patch that does not apply
# exactly (no fuzz) stops the build with patch's own message.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
tar=${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}
src=$cache/linux-source-6.1
jobs=${JOBS:-$(($(nproc) + 1))}
karch=${KARCH:-x86_64}
mode=${1:-image}
board=$(awk -v a="$karch" '$1 == a' "$here/boards")
[ -n "$board" ] || { echo "kernel: error: KARCH=$karch: not in kernel/boards ($(awk '/^[^#]/ { printf "%s ", $1 }' "$here/boards"))" >&2; exit 1; }
set -- "$mode" $board
frag=$here/$3 target=$4 built=$5 image=$cache/$6 cross=${7#-}
[ "$karch" = x86_64 ] && tag= obj=$cache/kbuild || tag=-$karch obj=$cache/kbuild-$karch
case $mode in
image) ;;
headers) obj=$cache/headers-$karch image=$obj/usr/include tag=-headers-$karch cross= ;;
*)	echo "kernel: error: unknown argument '$mode' (headers, or none)" >&2; exit 1 ;;
esac
kmake() { make -C "$src" O="$obj" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@"; }
say() { echo "kernel${tag}: $*"; }
die() { echo "kernel${tag}: error: $*" >&2; exit 1; }

[ -r "$tar" ] || die "$tar not found (apt-get install linux-source-6.1)"
for t in gcc make flex bison bc perl patch xz flock; do
	command -v $t >/dev/null || die "'$t' not found (apt-get install gcc make flex bison bc perl patch xz-utils)"
done
[ -f /usr/include/libelf.h ] || die "libelf.h not found (apt-get install libelf-dev)"
[ -f /usr/include/openssl/opensslv.h ] || die "openssl headers not found (apt-get install libssl-dev)"
[ -z "$cross" ] || command -v ${cross}gcc >/dev/null ||
	die "'${cross}gcc' not found (apt-get install gcc-${cross%-})"

# One build at a time per cache folder and arch (make check and make demo may
# overlap); the shared tree (steps 1 and 2) under the x86 build's lock.
mkdir -p "$cache"
if [ -n "$tag" ]; then
	exec 7>"$cache/build$tag.lock"
	flock -n 7 || { say "waiting for another $karch kernel build in $cache"; flock 7; }
fi
exec 9>"$cache/build.lock"
[ -n "$tag" ] || flock -n 9 || { say "waiting for another kernel build in $cache"; flock 9; }

# What the result depends on; the same key as last time means nothing to do.
key=$(ls -l --time-style=+%s "$tar" | awk '{ print $5, $6 }';
      { [ $mode = headers ] || cat "$frag"; cat "$here"/*.patch "$0"; echo "$board"; } | sha256sum)
if [ -e "$image" ] && [ "$(cat "$image.key" 2>/dev/null)" = "$key" ]; then
	say "$(basename "$image") is up to date ($image)"
	exit 0
fi
[ -z "$tag" ] || flock -n 9 || { say "waiting for another kernel build in $cache"; flock 9; }

# 1. The tree, unpacked once per tarball (into a scratch folder, then moved).
tarstamp=$(ls -l --time-style=+%s "$tar" | awk '{ print $5, $6 }')
if [ "$(cat "$src/.tracebox-tar" 2>/dev/null)" != "$tarstamp" ]; then
	say "unpacking $tar into $cache (about 30 s)"
	rm -rf "$src" "$obj" "$cache/unpack.tmp"
	mkdir -p "$cache/unpack.tmp"
	tar -C "$cache/unpack.tmp" -xJf "$tar"
	mv "$cache/unpack.tmp/linux-source-6.1" "$src"
	rmdir "$cache/unpack.tmp"
	echo "$tarstamp" >"$src/.tracebox-tar"
fi

# 2. The series: take out what was applied before if it differs, apply ours.
applied=$src/.tracebox-patches
series_id() { for p in "$1"/*.patch; do [ -f "$p" ] && basename "$p" && cat "$p"; done | sha256sum; }
if [ "$(series_id "$applied")" != "$(series_id "$here")" ]; then
	for p in $(ls -r "$applied"/*.patch 2>/dev/null); do
		say "reversing $(basename "$p")"
		patch -d "$src" -p1 -R -s -F0 --no-backup-if-mismatch <"$p" ||
			die "cannot reverse $(basename "$p"); remove $src to start over"
		rm "$p"
	done
	mkdir -p "$applied"
	for p in "$here"/*.patch; do
		say "applying $(basename "$p")"
		patch -d "$src" -p1 -N -s -F0 --dry-run <"$p" >"$cache/patch.log" 2>&1 || {
			cat "$cache/patch.log" >&2
			die "$(basename "$p") does not apply to $src"
		}
		patch -d "$src" -p1 -N -s -F0 --no-backup-if-mismatch <"$p"
		cp "$p" "$applied/"
	done
fi

[ -z "$tag" ] || exec 9>&-    # the tree is ready: the other arch may go on

if [ $mode = headers ]; then
	say "installing the $karch UAPI headers into $obj/usr/include"
	kmake -s headers >"$cache/build$tag.log" 2>&1 || { cat "$cache/build$tag.log" >&2; die "make headers failed"; }
	echo "$key" >"$image.key"
	exit 0
fi

# 3. The configuration: tinyconfig, the fragment merged in, then checked.
mkdir -p "$obj"
if ! cmp -s "$frag" "$obj/.tracebox-fragment" || [ ! -f "$obj/.config" ]; then
	say "configuring: tinyconfig + kernel/$(basename "$frag")"
	kmake -s tinyconfig >"$cache/config$tag.log" 2>&1 || { cat "$cache/config$tag.log"; die "make tinyconfig failed"; }
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >>"$cache/config$tag.log" 2>&1
	kmake -s olddefconfig >>"$cache/config$tag.log" 2>&1 || { cat "$cache/config$tag.log"; die "make olddefconfig failed"; }
	cp "$frag" "$obj/.tracebox-fragment"
fi
lost=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1=n/p' "$frag" |
	while IFS== read -r opt val; do
		have=$(sed -n "s/^$opt=//p" "$obj/.config")
		[ "$val" = n ] && { [ -z "$have" ] || echo "$opt=n (is $have)"; continue; }
		[ "$have" = "$val" ] || echo "$opt=$val (is ${have:-not set})"
	done)
if [ -n "$lost" ]; then
	rm -f "$obj/.tracebox-fragment"
	die "options of kernel/$(basename "$frag") that did not stick (a missing dependency?):
$lost"
fi

# 4. The image, with a progress line every 10% (estimated from the last build).
est=$(cat "$cache/kbuild$tag.count" 2>/dev/null || echo 1000)
say "building $target with $jobs jobs (about 5 minutes on 2 idle cores; log: $cache/build$tag.log)"
start=$(date +%s)
{ kmake -j"$jobs" $target 2>&1; echo $? >"$cache/build$tag.rc"; } | tee "$cache/build$tag.log" | {
	n=0 shown=0
	while IFS= read -r line; do
		case $line in *" CC "*|*" AS "*|*" LD "*|*" AR "*) n=$((n + 1)) ;; *) continue ;; esac
		pct=$((n * 100 / est)); [ $pct -gt 99 ] && pct=99
		if [ $((pct / 10)) -gt $shown ]; then
			shown=$((pct / 10))
			say "[$pct%] $n steps, $(($(date +%s) - start)) s"
		fi
	done
	echo "$n" >"$cache/kbuild$tag.count.new"
}
if [ "$(cat "$cache/build$tag.rc")" != 0 ]; then
	grep -B2 -A8 -m3 'error' "$cache/build$tag.log" >&2 || tail -30 "$cache/build$tag.log" >&2
	die "the kernel build failed (full log: $cache/build$tag.log)"
fi
n=$(cat "$cache/kbuild$tag.count.new")
[ "$n" -gt 200 ] && mv "$cache/kbuild$tag.count.new" "$cache/kbuild$tag.count" || rm -f "$cache/kbuild$tag.count.new"
cp "$obj/$built" "$image"
echo "$key" >"$image.key"
say "done in $(($(date +%s) - start)) s: $image ($(du -k "$image" | cut -f1) KiB)"
