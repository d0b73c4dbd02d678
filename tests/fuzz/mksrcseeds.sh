#!/bin/sh
# mksrcseeds.sh - write the seed corpora of the unwind and lines targets
# (tests/fuzz/corpus/{unwind,lines}): the source-level test program and its
# library built -O2 -g (their DWARF and CFI), a debug-only file, and
# register and stack dumps against the fuzzer's own CFI (mode 0) and the
# program's (mode 1). Usage: mksrcseeds.sh CORPUS_DIR
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
