#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""rename-events.py SRC DST OLD_SYS:OLD_EVENT=NEW_SYS:NEW_EVENT ...
                   SYS:EVENT.FIELD=NEW[,NEW...] ...   (split a field)
                   SYS:EVENT/FIELD=NEW ...            (rename a field)

Write DST: the file-mode perf.data SRC with tracepoint formats renamed in
its tracing data (any lengths, any bytes but NUL and newline in the names),
the following feature sections moved to fit. A recording is untrusted input:
this makes the hostile ones (a system named 'a;die"PWN";#') and the
colliding ones (two formats whose handler names sanitize alike) that
tests/engines.test feeds to trace-gen and the engines.
SYS:EVENT.FIELD=NEW renames a field (and REC->FIELD in the print format);
with several names a fixed array field becomes that many fields, one per
equal part (REC->FIELD[i] becomes REC->NEWi): fields named print, len,
str... for the generated scripts' tests. The records keep their bytes."""
import re
import struct
import sys


def u32(d, o): return struct.unpack_from("<I", d, o)[0]
def u64(d, o): return struct.unpack_from("<Q", d, o)[0]


def parse_systems(td):
    """(prefix bytes, [(system, [format text])], suffix bytes) of a tracing data payload."""
    o = 10
    o = td.index(b"\0", o) + 1 + 6                    # version, endian, long size, page size
    for tag in (b"header_page", b"header_event"):
        o += len(tag) + 1
        o += 8 + u64(td, o)
    n = u32(td, o)
    o += 4
    for _ in range(n):
        o += 8 + u64(td, o)
    prefix, nsys = td[:o], u32(td, o)
    o += 4
    systems = []
    for _ in range(nsys):
        end = td.index(b"\0", o)
        name, o = td[o:end], end + 1
        nev, o = u32(td, o), o + 4
        fmts = []
        for _ in range(nev):
            size = u64(td, o)
            fmts.append(td[o + 8:o + 8 + size])
            o += 8 + size
        systems.append([name, fmts])
    return prefix, systems, td[o:]


def rename(systems, old, new):
    osys, oev = old.encode().split(b":", 1)
    nsys, nev = new.encode().split(b":", 1)
    for i, (name, fmts) in enumerate(systems):
        for j, text in enumerate(fmts):
            if name == osys and text.startswith(b"name: " + oev + b"\n"):
                del fmts[j]
                if not fmts:
                    del systems[i]
                text = b"name: " + nev + text[len(b"name: " + oev):]
                for s in systems:
                    if s[0] == nsys:
                        s[1].append(text)
                        return
                systems.append([nsys, [text]])
                return
    sys.exit("rename-events: no format %s" % old)


def rename_field(systems, where, new):
    ev, field = where.encode().split(b".", 1)
    osys, oev = ev.split(b":", 1)
    names = new.encode().split(b",")
    line = re.compile(rb"\tfield:([^;\n]*?)\b" + re.escape(field) +
                      rb"(\[\d+\])?;\toffset:(\d+);\tsize:(\d+);")
    for name, fmts in systems:
        for j, text in enumerate(fmts):
            if name != osys or not text.startswith(b"name: " + oev + b"\n"):
                continue
            m = line.search(text)
            if not m:
                break
            off, size = int(m.group(3)), int(m.group(4))
            part = size // len(names)
            lines = b"".join(b"\tfield:%s%s;\toffset:%d;\tsize:%d;" %
                             (m.group(1), n, off + k * part, part) +
                             (b"\n" if k + 1 < len(names) else b"")
                             for k, n in enumerate(names))
            # the rest of the line (signed:N;) follows the last one
            text = text[:m.start()] + lines.replace(b";\n", b";\tsigned:0;\n") + text[m.end():]
            if len(names) == 1:
                text = text.replace(b"REC->" + field, b"REC->" + names[0])
                text = text.replace(b"__get_str(%s)" % field, b"__get_str(%s)" % names[0])
            for k, n in enumerate(names):
                text = text.replace(b"REC->%s[%d]" % (field, k), b"REC->" + n)
            fmts[j] = text
            return
    sys.exit("rename-events: no field %s" % where)


def rename_field_only(systems, where, new):
    """SYS:EVENT/FIELD=NEW: the field FIELD of that format named NEW."""
    evname, field = where.encode().split(b"/", 1)
    osys, oev = evname.split(b":", 1)
    for name, fmts in systems:
        for j, text in enumerate(fmts):
            old = b" " + field + b";\toffset:"
            if name == osys and text.startswith(b"name: " + oev + b"\n") and old in text:
                fmts[j] = text.replace(old, b" " + new.encode() + b";\toffset:", 1)
                return
    sys.exit("rename-events: no field %s" % where)


def main():
    src, dst, renames = sys.argv[1], sys.argv[2], sys.argv[3:]
    d = bytearray(open(src, "rb").read())
    data_off, data_size = struct.unpack_from("<QQ", d, 40)
    bitmap = struct.unpack_from("<4Q", d, 72)
    bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
    if 1 not in bits:
        sys.exit("rename-events: %s has no tracing data" % src)
    index = data_off + data_size
    td_ent = index + 16 * bits.index(1)
    td_off, td_size = struct.unpack_from("<QQ", d, td_ent)
    prefix, systems, suffix = parse_systems(bytes(d[td_off:td_off + td_size]))
    for r in renames:
        old, new = r.split("=", 1)
        if "/" in old:
            rename_field_only(systems, old, new)
        elif "." in old and ":" not in new:
            rename_field(systems, old, new)
        else:
            rename(systems, old, new)
    out = bytearray(prefix) + struct.pack("<I", len(systems))
    for name, fmts in systems:
        out += name + b"\0" + struct.pack("<I", len(fmts))
        for text in fmts:
            out += struct.pack("<Q", len(text)) + text
    out += suffix
    delta = len(out) - td_size
    for k in range(len(bits)):
        off, size = struct.unpack_from("<QQ", d, index + 16 * k)
        if off > td_off:
            struct.pack_into("<Q", d, index + 16 * k, off + delta)
    struct.pack_into("<Q", d, td_ent + 8, len(out))
    d[td_off:td_off + td_size] = out
    open(dst, "wb").write(d)


main()
