#!/usr/bin/env python3
"""newer.py - make a file-mode perf.data look as if a newer perf or kernel wrote it.

usage: newer.py FIXTURE OUT KIND

KIND:
  types     the first two MMAP2 records get record types 99 (perf-side range)
            and 23 (kernel range), which neither perf 6.1 nor tracebox knows
  features  feature bits 40 and 77 set; they take the index's unused zero
            slots that perf 6.1 leaves after the used entries
  attr136   every attr grows to 136 bytes (8 zero bytes after perf 6.1's 128)
  attr144   every attr grows to 144 bytes, the 16 new bytes not zero
  pipe      (a pipe-mode FIXTURE) a HEADER_FEATURE for bit 40 and a record of
            type 99 right after the 16-byte pipe header

Layout: shared/docs/perf-data-format.md sections 2, 3 and 5. Stdlib only.
"""
import struct
import sys


def records(d, off, size):
    p = off
    while p < off + size:
        t, _, sz = struct.unpack_from('<IHH', d, p)
        yield p, t, sz
        p += sz


def main():
    src, out, kind = sys.argv[1:4]
    d = bytearray(open(src, 'rb').read())
    if kind == 'pipe':
        assert struct.unpack_from('<Q', d, 8)[0] == 16, "not a pipe-mode file"
        feat = struct.pack('<IHHQQ', 80, 0, 24, 40, 0)
        rec = struct.pack('<IHHQ', 99, 0, 16, 0)
        open(out, 'wb').write(d[:16] + feat + rec + d[16:])
        return
    attr_size, a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQQ', d, 16)
    if kind == 'types':
        n = 0
        for p, t, _ in records(d, d_off, d_size):
            if t == 10 and n < 2:
                struct.pack_into('<I', d, p, (99, 23)[n])
                n += 1
        assert n == 2, "fewer than two MMAP2 records"
    elif kind == 'features':
        feats = list(struct.unpack_from('<4Q', d, 72))
        used = sum(bin(w).count('1') for w in feats)
        idx = d_off + d_size
        for k in (used, used + 1):   # the zero slots must be there
            assert struct.unpack_from('<QQ', d, idx + 16 * k) == (0, 0), "no free index slot"
        feats[0] |= 1 << 40
        feats[1] |= 1 << (77 - 64)
        struct.pack_into('<4Q', d, 72, *feats)
    elif kind in ('attr136', 'attr144'):
        grow = 8 if kind == 'attr136' else 16
        fill = b'\0' * grow if grow == 8 else bytes(range(1, grow + 1))
        nr = a_size // attr_size
        attrs = bytearray()
        for i in range(nr):
            a = d[a_off + i * attr_size:a_off + (i + 1) * attr_size]
            size = struct.unpack_from('<I', a, 4)[0]
            struct.pack_into('<I', a, 4, size + grow)
            attrs += a[:size] + fill + a[size:]
        delta = nr * grow
        # what follows the attrs moves by delta: the data, the index, the payloads
        assert a_off + a_size <= d_off
        nd = d[:a_off] + attrs + d[a_off + a_size:]
        struct.pack_into('<QQQQQ', nd, 16, attr_size + grow, a_off, a_size + delta,
                         d_off + delta, d_size)
        feats = struct.unpack_from('<4Q', nd, 72)
        used = sum(bin(w).count('1') for w in feats)
        idx = d_off + delta + d_size
        for k in range(used):
            o, s = struct.unpack_from('<QQ', nd, idx + 16 * k)
            struct.pack_into('<QQ', nd, idx + 16 * k, o + delta, s)
        d = nd
    else:
        sys.exit("newer.py: unknown KIND " + kind)
    open(out, 'wb').write(d)


if __name__ == '__main__':
    main()
