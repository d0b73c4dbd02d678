#!/bin/sh
# build.sh - stage the guest's files from initramfs/files.list and pack them
# as a gzipped cpio initramfs.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: initramfs/build.sh [OUT]   (default build/initramfs.cpio.gz; make initramfs runs it)
# env:   BUILD  the build folder (default build); the staged tree is OUT without
#               .cpio.gz ($BUILD/initramfs/)
#        FILES_LIST  what goes in (default initramfs/files.list; the arm64
#               guest's is initramfs/files-arm64.list)
#        STRIP  the strip for "bin" lines (default strip; aarch64-linux-gnu-strip
#               for the arm64 guest)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
out=${1:-$BUILD/initramfs.cpio.gz}
root=${out%.cpio.gz}
list=${FILES_LIST:-initramfs/files.list}
strip=${STRIP:-strip}
cache=${TRACEBOX_CACHE:-$HOME/.cache/tracebox}
py=/usr/bin/python3.11
die() { echo "initramfs: error: $*" >&2; exit 1; }

[ -x $py ] || die "$py not found (apt-get install python3.11)"
mkdir -p "$BUILD"
exec 9>"$root.lock"    # one build of this image at a time
flock -n 9 || { echo "initramfs: waiting for another initramfs build"; flock 9; }
rm -rf "$root"
mkdir -p "$root"
# put SOURCE at guest PATH (parents created)
place() { mkdir -p "$root$(dirname "$1")"; }
src() {
	s=$(echo "$1" | sed "s|^\\\$BUILD|$BUILD|; s|^\\\$CACHE|$cache|")
	[ -e "$s" ] || die "$list line $n: $s not found${2:+ ($2)}"
	echo "$s"
}

n=0
while read -r kind path args; do
	n=$((n + 1))
	case $kind in ''|'#'*) continue ;; esac
	case $kind in
	dir)	for d in $path $args; do mkdir -p "$root$d"; done ;;
	busybox)
		s=$(src "$args" "apt-get install busybox-static")
		place "$path"; cp "$s" "$root$path"
		"$s" --list-full | while read -r a; do
			[ "/$a" = "$path" ] && continue
			mkdir -p "$root/$(dirname "$a")"
			ln -sf "$path" "$root/$a"
		done ;;
	bin)	s=$(src "$args" "run make first")
		place "$path"; $strip -o "$root$path" "$s" ;;
	file)	s=$(src "$args"); place "$path"; cp -p "$s" "$root$path" ;;
	link)	place "$path"; ln -sf "$args" "$root$path" ;;
	applets) s=$(src "$args")      # the names the Makefile's APPLETS reads too
		place "$path"
		sed -n 's/^\([a-z][a-z0-9_-]*\)[[:space:]].*/\1/p' "$s" | while read -r a; do
			ln -sf "$(basename "$path")" "$root$(dirname "$path")/$a"
		done ;;
	text)	place "$path"; printf '%s\n' "$args" >"$root$path" ;;
	tree)	s=$(src "$args"); place "$path"
		cp -rp "$s" "$root$path"
		find "$root$path" -name __pycache__ -prune -exec rm -rf {} + ;;
	pyzip)	place "$path"; $py initramfs/pyzip.py "$root$path" $args ;;
	perlpm)	mkdir -p "$root$path"
		perl -e 'require $_ for map { s{::}{/}g; "$_.pm" } @ARGV;
			print "$_\t$INC{$_}\n" for sort keys %INC' $args |
		while IFS='	' read -r rel file; do
			mkdir -p "$root$path/$(dirname "$rel")"; cp "$file" "$root$path/$rel"
		done
		echo "perlpm: $(find "$root$path" -type f | wc -l) files: $args" ;;
	*)	die "$list line $n: unknown kind '$kind'" ;;
	esac
done <"$list"

$py initramfs/mkcpio.py "$root" "$out" dev/console:c:5:1:600 dev/null:c:1:3:666
echo "initramfs: $out, $(du -k "$out" | cut -f1) KiB ($(du -sk "$root" | cut -f1) KiB unpacked)"
