#!/bin/sh
# build.sh - unpack Debian's linux-source-6.1 outside the repository, apply
# kernel/*.patch, configure tinyconfig + kernel/tracebox.config, build bzImage.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: kernel/build.sh        (make kernel runs it)
# env:   TRACEBOX_CACHE  cache folder (default ~/.cache/tracebox): the tree is
#                        $TRACEBOX_CACHE/linux-source-6.1, the objects kbuild/,
#                        the result $TRACEBOX_CACHE/bzImage
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
obj=$cache/kbuild
jobs=${JOBS:-$(($(nproc) + 1))}
frag=$here/tracebox.config
kmake() { make -C "$src" O="$obj" ARCH=x86_64 "$@"; }
say() { echo "kernel: $*"; }
die() { echo "kernel: error: $*" >&2; exit 1; }

[ -r "$tar" ] || die "$tar not found (apt-get install linux-source-6.1)"
for t in gcc make flex bison bc perl patch xz flock; do
	command -v $t >/dev/null || die "'$t' not found (apt-get install gcc make flex bison bc perl patch xz-utils)"
done
[ -f /usr/include/libelf.h ] || die "libelf.h not found (apt-get install libelf-dev)"
[ -f /usr/include/openssl/opensslv.h ] || die "openssl headers not found (apt-get install libssl-dev)"

# One build at a time per cache folder (make check and make demo may overlap).
mkdir -p "$cache"
exec 9>"$cache/build.lock"
flock -n 9 || { say "waiting for another kernel build in $cache"; flock 9; }

# What the result depends on; the same key as last time means nothing to do.
key=$(ls -l --time-style=+%s "$tar" | awk '{ print $5, $6 }';
      cat "$here"/*.patch "$frag" "$0" | sha256sum)
if [ -f "$cache/bzImage" ] && [ "$(cat "$cache/bzImage.key" 2>/dev/null)" = "$key" ]; then
	say "bzImage is up to date ($cache/bzImage)"
	exit 0
fi

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

# 3. The configuration: tinyconfig, the fragment merged in, then checked.
mkdir -p "$obj"
if ! cmp -s "$frag" "$obj/.tracebox-fragment" || [ ! -f "$obj/.config" ]; then
	say "configuring: tinyconfig + kernel/tracebox.config"
	kmake -s tinyconfig >"$cache/config.log" 2>&1 || { cat "$cache/config.log"; die "make tinyconfig failed"; }
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >>"$cache/config.log" 2>&1
	kmake -s olddefconfig >>"$cache/config.log" 2>&1 || { cat "$cache/config.log"; die "make olddefconfig failed"; }
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
	die "options of kernel/tracebox.config that did not stick (a missing dependency?):
$lost"
fi

# 4. bzImage, with a progress line every 10% (estimated from the last build).
est=$(cat "$cache/kbuild.count" 2>/dev/null || echo 1000)
say "building bzImage with $jobs jobs (about 5 minutes on 2 idle cores; log: $cache/build.log)"
start=$(date +%s)
{ kmake -j"$jobs" bzImage 2>&1; echo $? >"$cache/build.rc"; } | tee "$cache/build.log" | {
	n=0 shown=0
	while IFS= read -r line; do
		case $line in *" CC "*|*" AS "*|*" LD "*|*" AR "*) n=$((n + 1)) ;; *) continue ;; esac
		pct=$((n * 100 / est)); [ $pct -gt 99 ] && pct=99
		if [ $((pct / 10)) -gt $shown ]; then
			shown=$((pct / 10))
			say "[$pct%] $n steps, $(($(date +%s) - start)) s"
		fi
	done
	echo "$n" >"$cache/kbuild.count.new"
}
if [ "$(cat "$cache/build.rc")" != 0 ]; then
	grep -B2 -A8 -m3 'error' "$cache/build.log" >&2 || tail -30 "$cache/build.log" >&2
	die "the kernel build failed (full log: $cache/build.log)"
fi
n=$(cat "$cache/kbuild.count.new")
[ "$n" -gt 200 ] && mv "$cache/kbuild.count.new" "$cache/kbuild.count" || rm -f "$cache/kbuild.count.new"
cp "$obj/arch/x86/boot/bzImage" "$cache/bzImage"
echo "$key" >"$cache/bzImage.key"
say "done in $(($(date +%s) - start)) s: $cache/bzImage ($(du -k "$cache/bzImage" | cut -f1) KiB)"
