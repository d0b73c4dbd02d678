#!/usr/bin/env python3
"""ksymbols.py - a perf.data whose kernel samples fall in code the kernel
announced with KSYMBOL records (BPF programs, trampolines: JIT code
outside the kernel's map), each record in its time among the samples:
perf script names such an address from the record (a map and a symbol of
the record's name and length) until an unregister record removes it.

usage: ksymbols.py scenes|no-kernel-map|kernel-load|module OUT
scenes: registers, an unregister, a new program at an old one's address,
an unregister inside a module's map; no-kernel-map: a file without the
kernel's MMAP; kernel-load: a program past the recording's kernel map but
inside the span kallsyms gives it once loaded (this machine's kallsyms);
module: a kernel sample, then two in the map of a module "[foo]" at
0xffffffffc0400000 (its symbols from a --kallsyms file the test writes)

File mode, one cpu-clock attr (IP, TID, TIME, CALLCHAIN) with
sample_id_all (the KSYMBOL records are placed in time), no features; the
layout of shared/docs/perf-data-format.md sections 2 to 4. Stdlib only.
"""
import struct
import sys

S_IP, S_TID, S_TIME, S_CALLCHAIN = 1 << 0, 1 << 1, 1 << 2, 1 << 5
CONTEXT_KERNEL = 2**64 - 128
REC_MMAP, REC_COMM, REC_SAMPLE, REC_KSYMBOL = 1, 3, 9, 17
KSYM_BPF, KSYM_OOL, KSYM_UNREGISTER = 1, 2, 1
PID = 100


def rec(kind, body, t, misc=0):
    """a record with its sample_id trailer (TID, TIME)"""
    body += struct.pack('<IIQ', PID, PID, t)
    return struct.pack('<IHH', kind, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def ksymbol(addr, length, kind, name, t, flags=0):
    return rec(REC_KSYMBOL, struct.pack('<QIHH', addr, length, kind, flags) + padded(name), t)


def sample(ip, t):
    """a kernel sample at @ip, its stack that one frame"""
    return struct.pack('<IHH', REC_SAMPLE, 1, 8 + 48) + struct.pack('<QIIQQQQ', ip, PID, PID, t, 2,
                                                                    CONTEXT_KERNEL, ip)


def kernel_mmap(ks, t):
    return rec(REC_MMAP, struct.pack('<iiQQQ', -1, 0, ks, 0x1000000, ks) +
               padded('[kernel.kallsyms]_text'), t, 1)


def scenes(ks):
    """registers, unregisters and samples among them; a module's map"""
    a, b, mod = 0xffffffffc0100000, 0xffffffffc0200000, 0xffffffffc0400000
    alpha, beta = 'bpf_prog_0123456789abcdef_alpha', 'bpf_prog_fedcba9876543210_beta'
    data = [kernel_mmap(ks, 1),
            rec(REC_MMAP, struct.pack('<iiQQQ', -1, 0, mod, 0x10000, 0) + padded('[foo]'), 3, 1),
            ksymbol(a, 0x200, KSYM_BPF, alpha, 10),
            ksymbol(b, 0x10100, KSYM_OOL, 'ftrace_trampoline', 11)]
    t = 100
    # in alpha, at its start and last byte; one past its end; in the
    # trampoline, past 64 KiB (a length of 32 bits)
    for ip in (a, a + 0x10, a + 0x1ff, a + 0x200, b + 0x80, b + 0x10080):
        t += 1
        data.append(sample(ip, t))
    # alpha goes, another program comes at its address; an unregister
    # inside the module's map removes that map (perf's rule)
    data.append(ksymbol(a, 0x200, KSYM_BPF, alpha, 200, KSYM_UNREGISTER))
    data.append(sample(a + 0x10, 201))
    data.append(ksymbol(a, 0x80, KSYM_BPF, beta, 210))
    data.append(ksymbol(mod + 0x100, 0, KSYM_BPF, '', 211, KSYM_UNREGISTER))
    for ip in (a + 0x10, a + 0x90, b + 0x10, mod + 0x100):
        t = t + 1 if t > 211 else 212
        data.append(sample(ip, t))
    return data


def kallsyms_span():
    """the live kernel's _text and its last kallsyms address (no modules)"""
    text = last = None
    for line in open('/proc/kallsyms'):
        f = line.split()
        if len(f) == 3:
            addr = int(f[0], 16)
            text = addr if f[2] == '_text' else text
            last = max(last or 0, addr)
    return text, last


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('scenes', 'no-kernel-map', 'kernel-load',
                                                 'module'):
        sys.exit(__doc__)
    ks = 0xffffffff81000000
    head = [rec(REC_COMM, struct.pack('<II', PID, PID) + padded('jitted'), 2)]
    if sys.argv[1] == 'scenes':
        data = head + scenes(ks)
    elif sys.argv[1] == 'module':
        mod = 0xffffffffc0400000
        data = head + [kernel_mmap(ks, 1), rec(REC_MMAP, struct.pack('<iiQQQ', -1, 0, mod, 0x10000, 0)
                                               + padded('[foo]'), 3, 1)]
        data += [sample(ip, 100 + i) for i, ip in enumerate((ks + 0x100, mod + 0x110, mod + 0x208))]
    elif sys.argv[1] == 'no-kernel-map':
        data = head + [ksymbol(0xffffffffc0100000, 0x100, KSYM_BPF, 'p1', 10),
                       sample(0xffffffffc0100000, 100), sample(0xffffffffc0100010, 101)]
    else:
        # a program past the recording's kernel map, inside the span of
        # kallsyms the map takes when its symbols load: its name until then
        text, last = kallsyms_span()
        x = ks + 0x1800000
        if not text or last - text <= 0x1800100:
            sys.exit('ksymbols.py: the kernel is too small for kernel-load')
        data = head + [kernel_mmap(ks, 1), ksymbol(x, 0x100, KSYM_BPF, 'mid', 10)]
        data += [sample(ip, 100 + i) for i, ip in enumerate((x + 0x10, ks + 0x100, x + 0x10,
                                                             x + 0x20))]
    write(sys.argv[2], b''.join(data))


def write(out, body):
    attr = struct.pack('<IIQQQQQ', 1, 128, 0, 1, S_IP | S_TID | S_TIME | S_CALLCHAIN, 0, 1 << 18)
    attr += bytes(128 - len(attr))
    head = struct.pack('<8sQQ', b'PERFILE2', 104, 128 + 16)
    head += struct.pack('<QQQQQQ', 104, 128 + 16, 104 + 128 + 16, len(body), 0, 0) + bytes(32)
    with open(out, 'wb') as f:
        f.write(head + attr + struct.pack('<QQ', 0, 0) + body)


main()
