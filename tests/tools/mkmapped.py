#!/usr/bin/env python3
"""mkmapped.py - a perf.data of one process with one ELF mapped, sampled at
every STEP bytes of the ELF's .text: what `perf script -F ip,sym,symoff`
and trace-report then print names each address by the ELF's symbols.

usage: mkmapped.py [--load] ELF OUT [STEP]   (STEP: 2 by default)

--load samples the whole executable PT_LOAD (.init, .plt, .text, ...)
instead of .text alone.

usage: mkmapped.py --anon PID START LEN OUT [STEP]
maps LEN bytes of anonymous memory ("//anon", as JIT code is) at START
(hex) in process PID instead, sampled every STEP bytes: its symbols come
from /tmp/perf-PID.map.

usage: mkmapped.py --anon-twice PID START LEN OUT [STEP]
as --anon, each sample with a one-frame user stack (its ip); then the
memory is mapped again a page lower (LEN + 4096 bytes: the same code, a
new map) and sampled again: a stack line's address in the map is the
same twice, its map's start is not.

ELF may be of any machine, 32 or 64 bits, either byte order: the symbols
are read from it as they are, whatever the recording's host. The file is
file mode, one cpu-clock attr (sample_type IP|TID|TIME), no features; then a
COMM, a MMAP2 of the ELF's executable PT_LOAD, and the samples (user mode).
Layout: shared/docs/perf-data-format.md sections 2 to 4. Stdlib only.
"""
import os
import struct
import sys

PID = 4242
S_IP, S_TID, S_TIME, S_CALLCHAIN = 1 << 0, 1 << 1, 1 << 2, 1 << 5
CONTEXT_USER = (1 << 64) - 512
REC_MMAP2, REC_COMM, REC_SAMPLE = 10, 3, 9
MISC_USER = 2


def elf_layout(path):
    """(exec PT_LOAD's vaddr, memsz, offset, .text's addr and size)"""
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF':
        sys.exit('mkmapped.py: %s: not an ELF file' % path)
    bits64, e = d[4] == 2, '<' if d[5] == 1 else '>'
    if bits64:
        phoff, shoff = struct.unpack_from(e + 'QQ', d, 32)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from(e + '5H', d, 54)
    else:
        phoff, shoff = struct.unpack_from(e + 'II', d, 28)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from(e + '5H', d, 42)
    load = None
    for i in range(phnum):
        o = phoff + i * phentsize
        if bits64:
            p_type, p_flags, p_off, p_vaddr, _, _, p_memsz = struct.unpack_from(e + 'IIQQQQQ', d, o)
        else:
            p_type, p_off, p_vaddr, _, _, p_memsz, p_flags = struct.unpack_from(e + '7I', d, o)
        if p_type == 1 and p_flags & 1:
            load = (p_vaddr, p_memsz, p_off)
    secs = []
    for i in range(shnum):
        o = shoff + i * shentsize
        if bits64:
            name, _, _, addr, off, size = struct.unpack_from(e + 'IIQQQQ', d, o)
        else:
            name, _, _, addr, off, size = struct.unpack_from(e + '6I', d, o)
        secs.append((name, addr, off, size))
    stroff = secs[shstrndx][2]
    text = [s for s in secs if d[stroff + s[0]:].split(b'\0', 1)[0] == b'.text']
    if not load or not text:
        sys.exit('mkmapped.py: %s: no executable PT_LOAD or no .text' % path)
    return load + (text[0][1], text[0][3])


def attr(stacks):
    a = struct.pack('<IIQQQQQ', 1, 128, 0, 1, S_IP | S_TID | S_TIME | (S_CALLCHAIN if stacks else 0),
                    0, 0)
    return a + bytes(128 - len(a))


def rec(kind, body, misc=0):
    return struct.pack('<IHH', kind, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def anon_map(pid, start, size):
    return rec(REC_MMAP2, struct.pack('<IIQQQIIQQII', pid, pid, start, size, 0, 0, 0, 0, 0, 7, 2) +
               padded('//anon'), MISC_USER)


def anon(args):
    if len(args) not in (4, 5):
        sys.exit(__doc__)
    pid, start, size, out = int(args[0]), int(args[1], 16), int(args[2]), args[3]
    step = int(args[4]) if len(args) == 5 else 2
    data = rec(REC_COMM, struct.pack('<II', pid, pid) + padded('jitted')) + anon_map(pid, start, size)
    return out, data, [(ip, pid) for ip in range(start, start + size, step)]


def anon_twice(args):
    out, data, ips = anon(args)
    pid, start, size = int(args[0]), int(args[1], 16), int(args[2])
    data += samples(ips, True, 0)
    return out, data + anon_map(pid, start - 4096, size + 4096), ips


def main():
    args = sys.argv[1:]
    if args[:1] == ['--anon']:
        out, data, ips = anon(args[1:])
        write(out, data, ips)
        return
    if args[:1] == ['--anon-twice']:
        out, data, ips = anon_twice(args[1:])
        write(out, data, ips, True, len(ips))
        return
    whole = args[:1] == ['--load']
    if whole:
        args = args[1:]
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    elf, out = os.path.abspath(args[0]), args[1]
    step = int(args[2]) if len(args) == 3 else 2
    vaddr, memsz, off, text, size = elf_layout(elf)
    if whole:
        text, size = vaddr, memsz
    start = vaddr - vaddr % 4096
    data = rec(REC_COMM, struct.pack('<II', PID, PID) + padded('mapped'))
    data += rec(REC_MMAP2, struct.pack('<IIQQQIIQQII', PID, PID, start, memsz + vaddr - start,
                                       off - (vaddr - start), 8, 1, 77, 0, 5, 2) + padded(elf),
                MISC_USER)
    write(out, data, [(ip, PID) for ip in range(text, text + size, step)])


def samples(ips, stacks, first):
    """a user-mode sample at each (ip, pid), with a one-frame stack if @stacks"""
    return b''.join(rec(REC_SAMPLE, struct.pack('<QIIQ', ip, pid, pid, 1000 + first + i) +
                        (struct.pack('<QQQ', 2, CONTEXT_USER, ip) if stacks else b''), MISC_USER)
                    for i, (ip, pid) in enumerate(ips))


def write(out, data, ips, stacks=False, first=0):
    """the file: header, attr, then data and the samples"""
    data += samples(ips, stacks, first)
    attr_off = 104
    data_off = attr_off + 128 + 16
    head = struct.pack('<8sQQ', b'PERFILE2', 104, 128 + 16)
    head += struct.pack('<QQQQQQ', attr_off, 128 + 16, data_off, len(data), 0, 0)
    head += bytes(32)
    with open(out, 'wb') as f:
        f.write(head + attr(stacks) + struct.pack('<QQ', 0, 0) + data)


main()
