#!/usr/bin/env python3
"""pdfeat.py IN OUT [--drop BIT] [--arch NAME] - copy a file-mode perf.data
file with its header features changed: --drop clears feature BIT (it must be
the highest one set, so that the other sections keep their places; 200 is
tracebox's syscall map), --arch rewrites the ARCH string (feature 6) in place,
within the room perf gave it (the length stays, the rest is NUL)."""
# SPDX-License-Identifier: GPL-2.0-only
import struct
import sys

FEAT_ARCH = 6


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    src, dst, opts = args[0], args[1], args[2:]
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"PERFILE2" or struct.unpack_from("<Q", data, 8)[0] != 104:
        sys.exit("pdfeat: %s: not a file-mode perf.data" % src)
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    bitmap = list(struct.unpack_from("<4Q", data, 72))
    bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
    while opts:
        opt, val = opts[0], opts[1]
        opts = opts[2:]
        if opt == "--drop":
            bit = int(val)
            if not bits or bits[-1] != bit:
                sys.exit("pdfeat: %s: feature %d is not the highest set (%s)" % (src, bit, bits))
            bitmap[bit // 64] &= ~(1 << (bit % 64))
            struct.pack_into("<4Q", data, 72, *bitmap)
            bits.pop()
        elif opt == "--arch":
            if FEAT_ARCH not in bits:
                sys.exit("pdfeat: %s: no arch feature" % src)
            sec = data_off + data_size + 16 * bits.index(FEAT_ARCH)
            off, size = struct.unpack_from("<QQ", data, sec)
            room = struct.unpack_from("<I", data, off)[0]
            name = val.encode()
            if len(name) + 1 > room or room + 4 > size:
                sys.exit("pdfeat: %s: no room for %r (%d bytes)" % (src, val, room))
            data[off + 4:off + 4 + room] = name + b"\0" * (room - len(name))
        else:
            sys.exit("pdfeat: unknown option %s" % opt)
    open(dst, "wb").write(data)


main()
