#!/bin/sh
# mksrcseeds.sh - write the seed corpora of the unwind and lines targets
# (tests/fuzz/corpus/{unwind,lines}): the source-level test program and its
# library built -O2 -g (their DWARF and CFI), a debug-only file, and
# register and stack dumps against the fuzzer's own CFI (mode 0), the
# program's (mode 1) and hostile CFI no compiler writes (mode 1: a CFA or
# return-address rule whose expression branches to itself or back, which
# libdwfl 0.188 refuses). Usage: mksrcseeds.sh CORPUS_DIR
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:?usage: mksrcseeds.sh CORPUS_DIR}" && cd "$1" && pwd)
mkdir -p "$out/unwind" "$out/lines"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s="$top/tests/tools/srcprog"
F="-O2 -g -fomit-frame-pointer"
gcc $F -shared -fPIC -o "$tmp/lib.so" "$s/lib.c"
g++ $F -c -o "$tmp/cxx.o" "$s/cxx.cc"
gcc $F -o "$tmp/prog" "$s/main.c" "$tmp/cxx.o" "$tmp/lib.so"
objcopy --only-keep-debug "$tmp/prog" "$tmp/prog.debug"
for f in prog lib.so prog.debug; do cp "$tmp/$f" "$out/lines/$f"; done
python3 - "$tmp/prog" "$out/unwind" <<'PY'
import struct, sys
prog = open(sys.argv[1], "rb").read()
out = sys.argv[2]
def dump(name, mode, regs, stack):
    open(out + "/" + name, "wb").write(bytes([mode]) + struct.pack("<17Q", *regs) + stack)
zero = [0] * 17
# a stack of return addresses into the text, 8 KiB
rets = b"".join(struct.pack("<Q", 0x555555554000 + 0x1000 + 16 * i) for i in range(1024))
sp = 0x7ffc00000000
regs = [0, 0, 0, 0, 0, 0, sp + 64, sp] + [0] * 8 + [0x1100]
dump("zero", 0, zero, b"\0" * 64)
dump("rets", 0, regs, rets)
dump("self-sp", 0, regs[:7] + [sp + 8] + regs[8:], struct.pack("<Q", sp) * 512)
dump("prog", 1, regs[:16] + [0x1180], rets[:4096] + prog)
PY
# hostile CFI: spin_fn at 0x1000 of a small shared object, the ip in it
for v in "cfa-skip-to-itself 0x0f,0x03,0x2f,0xfd,0xff" "cfa-bra-loop 0x0f,0x04,0x31,0x28,0xfc,0xff" \
	"ra-skip-to-itself 0x10,0x10,0x03,0x2f,0xfd,0xff"; do
	set -- $v
	printf '\t.text\n\t.globl spin_fn\n\t.type spin_fn, @function\nspin_fn:\n\t.cfi_startproc\n\t.cfi_escape %s\n\tnop\n\tnop\n\tret\n\t.cfi_endproc\n\t.size spin_fn, .-spin_fn\n' \
		"$2" >"$tmp/cfi.s"
	gcc -nostdlib -shared -o "$tmp/cfi.so" "$tmp/cfi.s"
	python3 -c 'import struct, sys
elf = open(sys.argv[1], "rb").read()
regs = [0] * 7 + [0x7ffc00001000] + [0] * 8 + [0x1001]
open(sys.argv[2], "wb").write(bytes([1]) + struct.pack("<17Q", *regs) + bytes(4096) + elf)' \
		"$tmp/cfi.so" "$out/unwind/cfi-$1"
done
