#!/usr/bin/env python3
"""latesample.py - move a file-mode perf.data's first SAMPLE record to the
end of its data section, so it arrives rounds after later events were
flushed: a late ("out of order") event, as perf's ordering lets through.

usage: latesample.py IN OUT
The data section keeps its size and place (the feature sections after it
stay valid). Layout: shared/docs/perf-data-format.md. Stdlib only.
"""
import struct
import sys

SAMPLE = 9


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: latesample.py IN OUT")
    buf = bytearray(open(sys.argv[1], 'rb').read())
    if buf[:8] != b'PERFILE2':
        sys.exit("latesample.py: not a file-mode perf.data")
    off, size = struct.unpack_from('<QQ', buf, 40)
    data = bytes(buf[off:off + size])
    pos, first = 0, None
    while pos + 8 <= len(data):
        typ, _, rsize = struct.unpack_from('<IHH', data, pos)
        if rsize < 8:
            sys.exit("latesample.py: a record of size %d" % rsize)
        if typ == SAMPLE and first is None:
            first = (pos, rsize)
        pos += rsize
    if first is None:
        sys.exit("latesample.py: no sample")
    p, n = first
    moved = data[:p] + data[p + n:pos] + data[p:p + n] + data[pos:]
    buf[off:off + size] = moved
    open(sys.argv[2], 'wb').write(buf)


main()
