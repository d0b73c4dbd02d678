#!/usr/bin/env python3
"""mkfields.py - write a file-mode perf.data whose samples carry the fields
only hardware (or BPF) fills, for comparing trace-report with perf script on
a machine without a PMU.

usage: mkfields.py OUT [SEED]

Three events, each with an EVENT_DESC name:
  r1cd         PERF_TYPE_RAW: ip, tid, time, addr, cpu, period, branch stack
               (with hw_idx), user regs, weight struct (ins_lat), data_src,
               intr regs, phys_addr, data and code page sizes
  page-faults  software: ip, tid, time, addr, cpu, period
  bpf-output   software: ip, tid, time, cpu, period, raw (text or bytes)
Every sample starts with IDENTIFIER. Values come from SEED (default 1), so
a test can make several files; addresses are not in any mapping (perf prints
[unknown] for them), except a few user ips inside the MMAP2 of /bin/true.

Layout: shared/docs/perf-data-format.md; perf_event_open(2) for the attr and
the sample body order. Stdlib only.
"""
import random
import struct
import sys

IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD = 1, 2, 4, 8, 16, 32, 64, 128, 256
RAW, BRANCH, REGS_USER, STACK_USER, WEIGHT, DATA_SRC, IDENTIFIER = 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16
REGS_INTR, PHYS_ADDR, DATA_PAGE_SIZE, CODE_PAGE_SIZE, WEIGHT_STRUCT = 1 << 18, 1 << 19, 1 << 22, 1 << 23, 1 << 24
BRANCH_ANY, BRANCH_HW_INDEX = 1 << 3, 1 << 17

REGS_USER_MASK = (1 << 0) | (1 << 7) | (1 << 8)               # AX SP IP
REGS_INTR_MASK = 0xf | (1 << 9) | (1 << 23) | (3 << 32)       # AX-DX FLAGS R15 XMM0


def attr(typ, config, sample_type, branch=0):
    a = struct.pack('<IIQQQQQIIQQQQIiQIHHII', typ, 128, config, 4000, sample_type, 0,
                    1 << 20,     # exclude_guest, sample_id_all off: side records go first
                    0, 0, 0, 0, branch,
                    REGS_USER_MASK if sample_type & REGS_USER else 0, 0, 0,
                    REGS_INTR_MASK if sample_type & REGS_INTR else 0, 0, 0, 0, 0, 0)
    a += b'\0' * (128 - len(a))
    assert len(a) == 128
    return a


def popcount(x):
    return bin(x).count('1')


def main():
    out = sys.argv[1]
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    pid = 4242
    exe = b'/bin/true'
    base = 0x555555554000
    events = [
        ('r1cd', attr(4, 0x1cd, IDENTIFIER | IP | TID | TIME | ADDR | CPU | PERIOD | BRANCH |
                      REGS_USER | WEIGHT_STRUCT | DATA_SRC | REGS_INTR | PHYS_ADDR |
                      DATA_PAGE_SIZE | CODE_PAGE_SIZE, BRANCH_ANY | BRANCH_HW_INDEX), 101),
        ('page-faults', attr(1, 2, IDENTIFIER | IP | TID | TIME | ADDR | CPU | PERIOD), 102),
        ('bpf-output', attr(1, 10, IDENTIFIER | IP | TID | TIME | CPU | PERIOD | RAW), 103),
    ]
    recs = []
    comm = struct.pack('<II', pid, pid) + b'fieldwork\0\0\0\0\0\0\0'
    recs.append(struct.pack('<IHH', 3, 0, 8 + len(comm)) + comm)
    name = exe + b'\0' * (8 - len(exe) % 8)
    mm = struct.pack('<IIQQQIIQQII', pid, pid, base, 0x10000, 0, 8, 1, 0, 0, 5, 2) + name
    recs.append(struct.pack('<IHH', 10, 2, 8 + len(mm)) + mm)

    def uaddr():
        r = rnd.random()
        if r < 0.3:
            return base + rnd.randrange(0x1000, 0x4000)
        if r < 0.6:
            return 0x7f0000000000 + rnd.randrange(1 << 32)
        return 0xffffffff81000000 + rnd.randrange(1 << 24)

    t = 1000 * 10**9 + rnd.randrange(10**9)
    for n in range(60):
        which = n % 3
        ev = events[which]
        st = struct.unpack_from('<Q', ev[1], 24)[0]
        t += rnd.randrange(1, 3 * 10**6)
        ip = uaddr()
        misc = 1 if ip >> 63 else 2
        body = struct.pack('<Q', ev[2])                      # IDENTIFIER
        body += struct.pack('<Q', ip)
        body += struct.pack('<ii', pid, pid + rnd.randrange(2))
        body += struct.pack('<Q', t)
        if st & ADDR:
            body += struct.pack('<Q', uaddr() if rnd.random() < 0.8 else 0)
        body += struct.pack('<II', rnd.randrange(2), 0)
        body += struct.pack('<Q', rnd.choice([1, 4000, 123456789]))
        if st & RAW:
            if rnd.random() < 0.5:
                data = b'hello from bpf %d\0' % n
            else:
                data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
            pad = (4 + len(data)) % 8
            data += b'\0' * ((8 - pad) % 8)
            body += struct.pack('<I', len(data)) + data
        if st & BRANCH:
            nr = rnd.randrange(0, 5)
            body += struct.pack('<QQ', nr, rnd.randrange(32))
            for _ in range(nr):
                fl = rnd.randrange(1 << 36)
                body += struct.pack('<QQQ', uaddr(), uaddr(), fl)
        if st & REGS_USER:
            if rnd.random() < 0.2:
                body += struct.pack('<Q', 0)                  # no regs (kernel thread)
            else:
                body += struct.pack('<Q', 2)
                body += b''.join(struct.pack('<Q', rnd.randrange(1 << 64))
                                 for _ in range(popcount(REGS_USER_MASK)))
        if st & WEIGHT_STRUCT:
            body += struct.pack('<IHH', rnd.randrange(1 << 20), rnd.randrange(1 << 16),
                                rnd.randrange(1 << 16))
        if st & DATA_SRC:
            v = rnd.choice([0, 0x68100142, 0x29080842, 0x1a040001])
            v |= rnd.randrange(1 << 5) | rnd.randrange(1 << 14) << 5 if rnd.random() < 0.3 else 0
            v |= rnd.randrange(16) << 33 if rnd.random() < 0.3 else 0
            v |= rnd.randrange(1 << 3) << 40 if rnd.random() < 0.3 else 0
            v |= rnd.randrange(5) << 43 if rnd.random() < 0.2 else 0
            v |= rnd.randrange(1 << 3) << 37 if rnd.random() < 0.3 else 0
            body += struct.pack('<Q', v)
        if st & REGS_INTR:
            body += struct.pack('<Q', 2)
            body += b''.join(struct.pack('<Q', rnd.randrange(1 << 64))
                             for _ in range(popcount(REGS_INTR_MASK)))
        if st & PHYS_ADDR:
            body += struct.pack('<Q', rnd.randrange(1 << 40))
        if st & DATA_PAGE_SIZE:
            body += struct.pack('<Q', rnd.choice([0, 4096, 2 << 20, 1 << 30, 2048]))
        if st & CODE_PAGE_SIZE:
            body += struct.pack('<Q', rnd.choice([0, 4096, 2 << 20]))
        recs.append(struct.pack('<IHH', 9, misc, 8 + len(body)) + body)
    data = b''.join(recs)

    # layout: header, ids, attrs, data, feature index, EVENT_DESC
    hdr_size = 104
    ids_off = hdr_size
    ids = b''.join(struct.pack('<Q', e[2]) for e in events)
    attrs_off = ids_off + len(ids)
    attrs = b''.join(e[1] + struct.pack('<QQ', ids_off + 8 * i, 8)
                     for i, e in enumerate(events))
    data_off = attrs_off + len(attrs)
    feat_off = data_off + len(data)
    desc = struct.pack('<II', len(events), 128)
    for e in events:
        nm = e[0].encode() + b'\0'
        nm += b'\0' * ((64 - len(nm) % 64) % 64)
        desc += e[1] + struct.pack('<II', 1, len(nm)) + nm + struct.pack('<Q', e[2])
    index = struct.pack('<QQ', feat_off + 16, len(desc))
    feats = 1 << 12                                         # HEADER_EVENT_DESC
    header = b'PERFILE2' + struct.pack('<QQ', hdr_size, 136)
    header += struct.pack('<QQ', attrs_off, len(attrs))
    header += struct.pack('<QQ', data_off, len(data))
    header += struct.pack('<QQ', 0, 0)
    header += struct.pack('<QQQQ', feats, 0, 0, 0)
    assert len(header) == hdr_size
    open(out, 'wb').write(header + ids + attrs + data + index + desc)


if __name__ == '__main__':
    main()
