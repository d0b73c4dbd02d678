#!/usr/bin/env python3
"""pdfeat.py IN OUT [--drop-map] [--arch NAME] - copy a file-mode perf.data
file with what it says about itself changed: --drop-map takes tracebox's
syscall map out (the EVENT_UPDATE record of type "tbox" at the start of the
data gets another type, which readers skip; a map in feature section 200,
the highest, loses its bit), --arch rewrites the ARCH string (feature 6) in
place, within the room perf gave it (the length stays, the rest is NUL).
A big-endian machine's file (magic 2ELIFREP) is changed in its own order."""
# SPDX-License-Identifier: GPL-2.0-only
import struct
import sys

FEAT_ARCH, FEAT_SYSCALL_MAP = 6, 200
EVENT_UPDATE, UPDATE_SYSCALL_MAP, UPDATE_NONE = 78, 0x74626f78, 0x656e6f6e  # "tbox", "none"


E = "<"  # the file's byte order: "<", or ">" for a big-endian machine's


def drop_map(data, data_off, data_size):
    """retype the syscall map records of the data section; how many there were"""
    pos, end, n = data_off, min(data_off + data_size, len(data)), 0
    while pos + 8 <= end:
        typ, _, rsize = struct.unpack_from(E + "IHH", data, pos)
        if rsize < 8:
            sys.exit("pdfeat: offset 0x%x: bad record size %d" % (pos, rsize))
        if typ == EVENT_UPDATE and rsize >= 24 and \
                struct.unpack_from(E + "Q", data, pos + 8)[0] == UPDATE_SYSCALL_MAP:
            struct.pack_into(E + "Q", data, pos + 8, UPDATE_NONE)
            n += 1
        pos += rsize
    return n


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    src, dst, opts = args[0], args[1], args[2:]
    global E
    data = bytearray(open(src, "rb").read())
    E = ">" if data[:8] == b"2ELIFREP" else "<"
    if data[:8] not in (b"PERFILE2", b"2ELIFREP") or struct.unpack_from(E + "Q", data, 8)[0] != 104:
        sys.exit("pdfeat: %s: not a file-mode perf.data" % src)
    data_off, data_size = struct.unpack_from(E + "QQ", data, 40)
    bitmap = list(struct.unpack_from(E + "4Q", data, 72))
    bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
    while opts:
        opt = opts.pop(0)
        if opt == "--drop-map":
            n = drop_map(data, data_off, data_size)
            if bits and bits[-1] == FEAT_SYSCALL_MAP:
                bitmap[FEAT_SYSCALL_MAP // 64] &= ~(1 << (FEAT_SYSCALL_MAP % 64))
                struct.pack_into(E + "4Q", data, 72, *bitmap)
                bits.pop()
                n += 1
            if n == 0:
                sys.exit("pdfeat: %s: no syscall map" % src)
        elif opt == "--arch" and opts:
            val = opts.pop(0)
            if FEAT_ARCH not in bits:
                sys.exit("pdfeat: %s: no arch feature" % src)
            sec = data_off + data_size + 16 * bits.index(FEAT_ARCH)
            off, size = struct.unpack_from(E + "QQ", data, sec)
            room = struct.unpack_from(E + "I", data, off)[0]
            name = val.encode()
            if len(name) + 1 > room or room + 4 > size:
                sys.exit("pdfeat: %s: no room for %r (%d bytes)" % (src, val, room))
            data[off + 4:off + 4 + room] = name + b"\0" * (room - len(name))
        else:
            sys.exit("pdfeat: unknown option %s" % opt)
    open(dst, "wb").write(data)


main()
