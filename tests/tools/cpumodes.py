#!/usr/bin/env python3
"""cpumodes.py - cpumodes and address spaces: a perf.data of one ELF mapped in four processes whose MMAP2
records carry cpumodes 0, 2, 4 and 5 (unknown, user, guest kernel, guest
user), each sampled at the ELF's .text start in user, hypervisor, guest
kernel and guest user mode: which maps and samples perf script keeps
(without --guest it drops guest samples; a guest kernel's MMAP is a
kernel map, a guest user's the process's). First, HEADER_BUILD_ID records
that give the ELF a wrong build-id on guest machines only (pid 0 with
cpumode 5, pid 4 with cpumode 2): perf picks the machine by the pid, so
the host's samples keep their names.

usage: cpumodes.py ELF OUT

usage: cpumodes.py --addr ELF OUT
a page-fault recording (sample_type IP|TID|TIME|ADDR) whose samples'
addresses lie in the other space than their cpumode, or in [vsyscall]
(a user map above 2^63): where perf looks an address up a second time.

File mode, one attr (cpu-clock, or page-faults with --addr), no features;
the layout of shared/docs/perf-data-format.md sections 2 to 4. Stdlib only.
"""
import os
import struct
import sys

S_IP, S_TID, S_TIME, S_ADDR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REC_MMAP, REC_MMAP2, REC_COMM, REC_SAMPLE, REC_BUILD_ID = 1, 10, 3, 9, 67


def text_of(path):
    """(.text's address, its file offset) of a 64-bit little-endian ELF"""
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<3H', d, 0x3a)
    secs = [struct.unpack_from('<IIQQQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for name, _, _, addr, off, _ in secs:
        if d[names + name:d.index(0, names + name)] == b'.text':
            return addr, off
    sys.exit('cpumodes.py: %s: no .text' % path)


def rec(kind, body, misc=0):
    return struct.pack('<IHH', kind, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def write(out, data, config=0, addr=False):
    """the file: header, one software attr (cpu-clock 0, page-faults 2), data"""
    st = S_IP | S_TID | S_TIME | (S_ADDR if addr else 0)
    attr = struct.pack('<IIQQQQQ', 1, 128, config, 1, st, 0, 0)
    attr += bytes(128 - len(attr))
    head = struct.pack('<8sQQ', b'PERFILE2', 104, 128 + 16)
    head += struct.pack('<QQQQQQ', 104, 128 + 16, 104 + 128 + 16, len(data), 0, 0) + bytes(32)
    with open(out, 'wb') as f:
        f.write(head + attr + struct.pack('<QQ', 0, 0) + data)


def addr_spaces(elf, out):
    _, off = text_of(elf)
    page, base, pid = off - off % 4096, 0x400000, 100
    ip, ks, vsys = base + off - page, 0xffffffff81000000, 0xffffffffff600000
    data = [rec(REC_MMAP, struct.pack('<iiQQQ', -1, 0, ks, 0x1000000, ks) +
                padded('[kernel.kallsyms]_text'), 1),
            rec(REC_COMM, struct.pack('<II', pid, pid) + padded('prog')),
            rec(REC_MMAP2, struct.pack('<IIQQQIIQQII', pid, pid, base, 0x10000, page, 8, 1, 77, 0,
                                       5, 2) + padded(elf), 2),
            rec(REC_MMAP2, struct.pack('<IIQQQIIQQII', pid, pid, vsys, 0x1000, 0, 0, 0, 0, 0, 5, 2) +
                padded('[vsyscall]'), 2)]
    for t, (mode, sip, saddr) in enumerate(((1, ks + 0x100, ip), (2, ip, ks + 0x100),
                                           (1, ks + 0x100, vsys + 0x100), (2, ip, vsys + 0x100),
                                           (2, ip, ip + 4))):
        data.append(rec(REC_SAMPLE, struct.pack('<QIIQQ', sip, pid, pid, 1000 + t, saddr), mode))
    write(out, b''.join(data), config=2, addr=True)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--addr':
        addr_spaces(os.path.abspath(sys.argv[2]), sys.argv[3])
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    elf, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    addr, off = text_of(elf)
    page, base = off - off % 4096, 0x40000000
    data, t = [], 1000
    for pid, mode in ((0, 5), (4, 2)):
        data.append(rec(REC_BUILD_ID, struct.pack('<i', pid) + bytes(range(1, 21)) +
                        bytes([20, 0, 0, 0]) + padded(elf), mode | 1 << 15))
    for mode in (0, 2, 4, 5):
        pid = 200 + mode
        data.append(rec(REC_COMM, struct.pack('<II', pid, pid) + padded('mode%d' % mode)))
        data.append(rec(REC_MMAP2, struct.pack('<IIQQQIIQQII', pid, pid, base, 0x10000, page,
                                               8, 1, 77, 0, 5, 2) + padded(elf), mode))
        for smode in (2, 3, 4, 5):
            t += 1
            ip = base + off - page
            data.append(rec(REC_SAMPLE, struct.pack('<QIIQ', ip, pid, pid, t), smode))
    write(out, b''.join(data))


main()
