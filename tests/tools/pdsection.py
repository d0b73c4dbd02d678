#!/usr/bin/env python3
"""pdsection.py FILE BIT - print the raw bytes of feature section BIT of a
file-mode perf.data file to stdout (e.g. 1 = TRACING_DATA)."""
import struct
import sys


def main():
    path, bit = sys.argv[1], int(sys.argv[2])
    with open(path, "rb") as f:
        hdr = f.read(104)
        if hdr[:8] != b"PERFILE2" or struct.unpack_from("<Q", hdr, 8)[0] != 104:
            sys.exit("pdsection: %s: not a file-mode perf.data" % path)
        data_off, data_size = struct.unpack_from("<QQ", hdr, 40)
        bitmap = struct.unpack_from("<4Q", hdr, 72)
        bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
        if bit not in bits:
            sys.exit("pdsection: %s: no feature %d (has %s)" % (path, bit, bits))
        f.seek(data_off + data_size + 16 * bits.index(bit))
        off, size = struct.unpack("<QQ", f.read(16))
        f.seek(off)
        sys.stdout.buffer.write(f.read(size))


main()
