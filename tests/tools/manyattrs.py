#!/usr/bin/env python3
"""manyattrs.py - a recording with many attrs: IN's own, then copies of its
first attr, each with one id of its own and no sample, up to N in all.

usage: manyattrs.py IN OUT N

IN is a file-mode perf.data (the new attrs section and the ids go after its
last byte, the header points there) or a pipe stream (the new HEADER_ATTR
records follow its own). Every attr of IN must carry ID or IDENTIFIER (the
copies then need no other change); the samples stay IN's, so perf script
prints what it prints for IN. Layout: shared/docs/perf-data-format.md
sections 2, 3 and 6. Stdlib only.
"""
import struct
import sys


def u16(d, o): return struct.unpack_from('<H', d, o)[0]
def u32(d, o): return struct.unpack_from('<I', d, o)[0]
def u64(d, o): return struct.unpack_from('<Q', d, o)[0]


def file_mode(d, n):
    attr_size, a_off, a_size = struct.unpack_from('<3Q', d, 16)
    attrs, ids, pos = [], [], a_off
    while pos < a_off + a_size:
        sz = u32(d, pos + 4) or 64
        ioff, isize = struct.unpack_from('<2Q', d, pos + sz)
        attrs.append(d[pos:pos + sz])
        ids += [u64(d, ioff + 8 * i) for i in range(isize // 8)]
        pos += sz + 16
    first, top = attrs[0], max(ids)
    out = bytearray(d)
    # the new ids, then the attrs section: IN's attrs (ids where they were), the copies
    ids_at = len(out)
    for k in range(n - len(attrs)):
        out += struct.pack('<Q', top + 1 + k)
    sec = bytearray()
    pos = a_off
    while pos < a_off + a_size:
        sz = u32(d, pos + 4) or 64
        sec += d[pos:pos + sz + 16]
        pos += sz + 16
    for k in range(n - len(attrs)):
        sec += first + struct.pack('<QQ', ids_at + 8 * k, 8)
    sec_at = len(out)
    out += sec
    struct.pack_into('<3Q', out, 16, len(first) + 16, sec_at, len(sec))
    return bytes(out)


def pipe_mode(d, n):
    pos, last, attrs, top = 16, None, [], 0
    while pos + 8 <= len(d) and u32(d, pos) in (64, 80):      # HEADER_ATTR, HEADER_FEATURE
        size = u16(d, pos + 6)
        if u32(d, pos) == 64:
            asz = u32(d, pos + 12) or 64
            attrs.append(d[pos + 8:pos + 8 + asz])
            top = max([top] + [u64(d, o) for o in range(pos + 8 + asz, pos + size, 8)])
            last = pos + size
        pos += size
    first = attrs[0]
    new = b''.join(struct.pack('<IHH', 64, 0, 8 + len(first) + 8) + first +
                   struct.pack('<Q', top + 1 + k) for k in range(n - len(attrs)))
    return d[:last] + new + d[last:]


def main():
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    d = open(src, 'rb').read()
    out = pipe_mode(d, n) if u64(d, 8) == 16 else file_mode(d, n)
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
