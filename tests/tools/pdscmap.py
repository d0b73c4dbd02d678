#!/usr/bin/env python3
"""pdscmap.py FILE - print the payload of the syscall map record (an
EVENT_UPDATE of type "tbox", the first record of tracebox's data) of a
file-mode perf.data file to stdout, without the sample id it names."""
import struct
import sys

EVENT_UPDATE, SYSCALL_MAP = 78, 0x74626f78


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"PERFILE2" or struct.unpack_from("<Q", data, 8)[0] != 104:
        sys.exit("pdscmap: %s: not a file-mode perf.data" % path)
    off, size = struct.unpack_from("<QQ", data, 40)
    pos, end = off, min(off + size, len(data))
    while pos + 8 <= end:
        typ, _, rsize = struct.unpack_from("<IHH", data, pos)
        if rsize < 8 or pos + rsize > end:
            sys.exit("pdscmap: %s: offset 0x%x: bad record size %d" % (path, pos, rsize))
        if typ == EVENT_UPDATE and struct.unpack_from("<Q", data, pos + 8)[0] == SYSCALL_MAP:
            sys.stdout.buffer.write(data[pos + 24:pos + rsize])
            return
        pos += rsize
    sys.exit("pdscmap: %s: no syscall map record" % path)


main()
