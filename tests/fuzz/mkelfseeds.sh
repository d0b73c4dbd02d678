#!/bin/sh
# mkelfseeds.sh - write the elf target's seed corpus (tests/fuzz/corpus/elf):
# small ELF files of each kind the symbol reader meets (executable, shared
# library with .plt, -z now, stripped, debug-only file, debuglink, static
# PIE, relocatable object) and this machine's vdso. Usage: mkelfseeds.sh DIR
set -e
out=$(mkdir -p "${1:?usage: mkelfseeds.sh DIR}" && cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/a.c" <<'C'
extern int ext_fn(int);
int data_obj[4] = { 1, 2, 3, 4 };
static int local_fn(int x) { return x * 3; }
__attribute__((weak)) int weak_fn(int x) { return x + 1; }
int glob_fn(int x) { return ext_fn(local_fn(x)) + weak_fn(x) + data_obj[x & 3]; }
void _start(void) { for (;;) glob_fn(1); }
C
F="-Os -fno-asynchronous-unwind-tables -Wl,-z,norelro -Wl,-z,noseparate-code -Wl,-z,max-page-size=0x10 -Wl,--build-id -nostdlib"
cd "$tmp"
gcc $F -shared -fPIC -o lib.so a.c
gcc $F -shared -fPIC -Wl,-z,now -o libnow.so a.c
gcc $F -static -Wl,--defsym=ext_fn=glob_fn -o exe a.c
gcc $F -static-pie -fPIE -Wl,--defsym=ext_fn=glob_fn -o pie a.c
gcc -Os -c -o obj.o a.c
cp lib.so stripped.so && strip stripped.so
objcopy --only-keep-debug lib.so lib.debug
objcopy --add-gnu-debuglink=lib.debug lib.so debuglink.so
python3 - vdso <<'PY'
import re, sys
for line in open('/proc/self/maps'):
    if line.rstrip().endswith('[vdso]'):
        lo, hi = (int(x, 16) for x in line.split()[0].split('-'))
        with open('/proc/self/mem', 'rb') as m:
            m.seek(lo)
            open(sys.argv[1], 'wb').write(m.read(hi - lo))
PY
for f in lib.so libnow.so exe pie obj.o stripped.so lib.debug debuglink.so vdso; do
	cp "$f" "$out/seed-$f"
done
