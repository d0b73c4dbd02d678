#!/usr/bin/env python3
"""newformat.py - make a file-mode perf.data look as if a kernel with another
format of raw_syscalls:sys_enter wrote it: `args` becomes 5 elements, a new
field `arg5` holds the sixth, and `id` turns unsigned (a type change); in
sys_exit `ret` turns unsigned (so -2 reads as 2^64-2). The records stay as
they are (same bytes, same offsets).

usage: newformat.py IN OUT [HOSTNAME]

With HOSTNAME, the hostname feature (bit 3) names another machine (at most
as long as the original's padded string), so a fleet query sees two hosts.

The format text lies in the tracing-data feature section (bit 1), after its
u64 length; the sections after it move by the growth (perf-data-format.md,
sections 2 and 7). Stdlib only.
"""
import struct
import sys

OLD_ARGS = b"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
NEW_ARGS = (b"\tfield:unsigned long args[5];\toffset:16;\tsize:40;\tsigned:0;\n"
            b"\tfield:unsigned long arg5;\toffset:56;\tsize:8;\tsigned:0;\n")
OLD_ID = b"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
NEW_ID = b"\tfield:unsigned long id;\toffset:8;\tsize:8;\tsigned:0;\n"
OLD_RET = b"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
NEW_RET = b"\tfield:unsigned long ret;\toffset:16;\tsize:8;\tsigned:0;\n"


def rewrite(d, t_off, t_size, event, edits):
    """Replace text in @event's format; returns how many bytes it grew."""
    name = d.index(b"name: " + event + b"\n", t_off, t_off + t_size)
    (flen,) = struct.unpack_from('<Q', d, name - 8)
    text = bytes(d[name:name + flen])
    new = text
    for old, rep in edits:
        assert old in text, "%s's format is not the expected one" % event.decode()
        new = new.replace(old, rep)
    d[name - 8:name + flen] = struct.pack('<Q', len(new)) + new
    return len(new) - len(text)


def main():
    src, out = sys.argv[1:3]
    host = sys.argv[3].encode() if len(sys.argv) > 3 else None
    d = bytearray(open(src, 'rb').read())
    d_off, d_size = struct.unpack_from('<QQ', d, 40)
    bits = int.from_bytes(d[72:104], 'little')
    feats = [b for b in range(256) if bits >> b & 1]
    assert 1 in feats, "no tracing data feature"
    idx = d_off + d_size
    sec = {b: list(struct.unpack_from('<QQ', d, idx + 16 * i)) for i, b in enumerate(feats)}
    t_off, t_size = sec[1]
    grow = rewrite(d, t_off, t_size, b"sys_enter", [(OLD_ARGS, NEW_ARGS), (OLD_ID, NEW_ID)])
    grow += rewrite(d, t_off, t_size + grow, b"sys_exit", [(OLD_RET, NEW_RET)])
    sec[1][1] += grow
    for b in feats:
        if b != 1 and sec[b][0] > t_off:
            sec[b][0] += grow
    for i, b in enumerate(feats):
        struct.pack_into('<QQ', d, idx + 16 * i, *sec[b])
    if host:
        h_off = sec[3][0]
        (slen,) = struct.unpack_from('<I', d, h_off)
        assert len(host) < slen, "hostname longer than the padded original"
        d[h_off + 4:h_off + 4 + slen] = host + b"\0" * (slen - len(host))
    open(out, 'wb').write(d)


if __name__ == '__main__':
    main()
