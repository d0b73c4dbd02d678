#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""midrename.py SRC DST N NAME

Write DST: the pipe-mode perf.data stream SRC with an EVENT_UPDATE record
naming the first attr's event NAME inserted after its N-th SAMPLE record
(its samples told by their IDENTIFIER; every sample's without one),
as a tool renaming an event mid-stream would write it. Before it go two
FINISHED_ROUNDs, after the (N/2)-th sample and after the N-th: the samples
up to the first are delivered, with the old name, before the update is
read (perf script prints the new name on those after). The other records
keep their bytes."""
import struct
import sys

HEADER_ATTR, EVENT_UPDATE, SAMPLE, FINISHED_ROUND = 64, 78, 9, 68
UPDATE_NAME = 2


def main():
    src, dst, after, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
    data = open(src, "rb").read()
    if data[:8] != b"PERFILE2" or struct.unpack_from("<Q", data, 8)[0] != 16:
        sys.exit(f"{src}: not a pipe-mode perf.data stream")
    out, off, ids, seen, done, ident = [data[:16]], 16, None, 0, False, False
    while off + 8 <= len(data):
        rtype, _misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8 or off + size > len(data):
            sys.exit(f"{src}: offset {off}: record of size {size} runs past the end")
        rec = data[off:off + size]
        out.append(rec)
        off += size
        if rtype == HEADER_ATTR and ids is None:
            attr_size = struct.unpack_from("<I", rec, 8 + 4)[0]
            ident = bool(struct.unpack_from("<Q", rec, 8 + 24)[0] & (1 << 16))
            nr = (size - 8 - attr_size) // 8
            ids = struct.unpack_from(f"<{nr}Q", rec, 8 + attr_size) if nr > 0 else ()
        if rtype == SAMPLE and (not ident or struct.unpack_from("<Q", rec, 8)[0] in ids):
            seen += 1
            if seen in (max(after // 2, 1), after) and not done:
                out.append(struct.pack("<IHH", FINISHED_ROUND, 0, 8))
            if seen == after and not done:
                if not ids:
                    sys.exit(f"{src}: the first attr has no ids to name")
                body = name + b"\0" * (8 - len(name) % 8)
                out.append(struct.pack("<IHHQQ", EVENT_UPDATE, 0, 24 + len(body),
                                       UPDATE_NAME, ids[0]) + body)
                done = True
    if not done:
        sys.exit(f"{src}: fewer than {after} samples")
    open(dst, "wb").write(b"".join(out))


main()
