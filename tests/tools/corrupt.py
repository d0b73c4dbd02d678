#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""corrupt.py - write damaged variants of a real perf.data recording.

usage: corrupt.py [--dump] FIXTURE OUTDIR [PREFIX]

Parses FIXTURE (file mode: header, attrs, ids, every data record, the feature
index and payloads, the tracing data; pipe mode: the record stream) and writes
one file per variant into OUTDIR, named PREFIX-WHAT.data, plus a line per
variant to OUTDIR/MANIFEST (appended to, so fixtures can share OUTDIR):

    CLASS <TAB> FILE <TAB> SIZE <TAB> what was done

CLASS is "must-fail" (truncations, absurd structural values: the reader has
to refuse the file), "lose-feature" (damage confined to one feature section
other than the tracing data: that section is lost, with one warning, and
every event is printed) or "may-pass" (damage that leaves the structure
valid, such as flips inside a sample's RAW payload, or whose outcome depends
on what the garbage happens to decode to). --dump prints the parsed layout.
Layout reference: shared/docs/perf-data-format.md. Python 3 stdlib only.
"""
import os
import re
import struct
import sys

MAGIC = b"PERFILE2"
REC = {1: "mmap", 2: "lost", 3: "comm", 4: "exit", 5: "throttle", 6: "unthrottle",
       7: "fork", 8: "read", 9: "sample", 10: "mmap2", 13: "lost-samples",
       64: "header-attr", 65: "header-event-type", 66: "header-tracing-data",
       67: "header-build-id", 68: "finished-round", 69: "id-index", 73: "thread-map",
       74: "cpu-map", 78: "event-update", 79: "time-conv", 80: "header-feature",
       82: "finished-init"}
FEAT = {1: "tracing-data", 2: "build-id", 3: "hostname", 4: "osrelease", 5: "version",
        6: "arch", 7: "nrcpus", 8: "cpudesc", 9: "cpuid", 10: "total-mem", 11: "cmdline",
        12: "event-desc", 13: "cpu-topology", 14: "numa-topology", 15: "branch-stack",
        16: "pmu-mappings", 17: "group-desc", 18: "auxtrace", 19: "stat", 20: "cache",
        21: "sample-time", 22: "mem-topology", 23: "clockid", 24: "dir-format",
        25: "bpf-prog-info", 26: "bpf-btf", 27: "compressed", 28: "cpu-pmu-caps",
        29: "clock-data", 30: "hybrid-topology", 31: "pmu-caps"}
STRING_FEATS = {3, 4, 5, 6, 8, 9}
S_IP, S_TID, S_TIME, S_ADDR, S_READ, S_CALLCHAIN, S_ID, S_CPU, S_PERIOD, S_STREAM_ID, \
    S_RAW = (1 << b for b in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
S_IDENTIFIER = 1 << 16
S_KNOWN = (S_IP | S_TID | S_TIME | S_ADDR | S_CALLCHAIN | S_ID | S_CPU | S_PERIOD |
           S_STREAM_ID | S_RAW | S_IDENTIFIER)
SAMPLE_ID_ALL = 1 << 18
HUGE64 = 0x7fffffffffffff00
MUST, MAY, LOSE = "must-fail", "may-pass", "lose-feature"


def u16(d, o): return struct.unpack_from("<H", d, o)[0]
def u32(d, o): return struct.unpack_from("<I", d, o)[0]
def u64(d, o): return struct.unpack_from("<Q", d, o)[0]


def put(d, off, fmt, val):
    b = bytearray(d)
    struct.pack_into("<" + fmt, b, off, val)
    return bytes(b)


def overwrite(d, off, b):
    return d[:off] + b + d[off + len(b):]


def flip(d, off):
    b = bytearray(d)
    b[off] ^= 0xFF
    return bytes(b)


# ---------------------------------------------------------------- parsing

def parse_sample(d, off, st):
    """Field offsets (absolute) of a SAMPLE record, in pd_sample_parse order."""
    f, o = {}, off + 8
    for bit, name in ((S_IDENTIFIER, "identifier"), (S_IP, "ip"), (S_TID, "pid"),
                      (S_TIME, "time"), (S_ADDR, "addr"), (S_ID, "id"),
                      (S_STREAM_ID, "stream-id"), (S_CPU, "cpu"), (S_PERIOD, "period")):
        if st & bit:
            f[name] = o
            o += 8
    if st & S_CALLCHAIN:
        f["callchain"] = o
        o += 8 + 8 * u64(d, o)
    if st & S_RAW:
        f["raw-size"] = o
        f["raw"] = o + 4
        f["raw-len"] = u32(d, o)
    return f


def parse_format(text):
    """name, ID and fields of a tracepoint format file."""
    fmt = {"name": None, "id": None, "fields": []}
    m = re.search(r"^name: (\S+)", text, re.M)
    fmt["name"] = m and m.group(1)
    m = re.search(r"^ID: (\d+)", text, re.M)
    fmt["id"] = m and int(m.group(1))
    for m in re.finditer(r"field:([^;]*);\toffset:(\d+);\tsize:(\d+);", text):
        decl = m.group(1)
        fmt["fields"].append({"decl": decl, "name": re.split(r"[\s\[]", decl.split()[-1])[0],
                              "offset": int(m.group(2)), "size": int(m.group(3)),
                              "data_loc": decl.startswith("__data_loc")})
    return fmt


def parse_td(d, base, size):
    """The tracing data payload: structural points and formats (absolute offsets)."""
    pts, counts, fmts = [], {}, []
    o = base

    def pt(name, at=None):
        pts.append((name, o if at is None else at))

    pt("magic")
    pt("magic-tracing", o + 3)
    o += 10
    pt("version")
    o = d.index(b"\0", o) + 1
    pt("endian")
    pt("long-size", o + 1)
    pt("page-size", o + 2)
    counts["endian"], counts["long-size"], counts["page-size"] = (o, "B"), (o + 1, "B"), (o + 2, "I")
    o += 6
    for tag in ("header_page", "header_event"):
        t = tag.replace("_", "-")
        pt(t + "-tag")
        counts[t + "-tag"] = (o, None)
        o += len(tag) + 1
        pt(t + "-size")
        counts[t + "-size"] = (o, "Q")
        n = u64(d, o)
        o += 8
        pt(t + "-text")
        pt(t + "-text-mid", o + n // 2)
        o += n
    pt("ftrace-count")
    counts["ftrace-count"] = (o, "I")
    nft = u32(d, o)
    o += 4
    for i in range(nft):
        pt("ftrace-format-%d-size" % i)
        n = u64(d, o)
        o += 8 + n
    pt("system-count")
    counts["system-count"] = (o, "I")
    nsys = u32(d, o)
    o += 4
    for _ in range(nsys):
        name = d[o:d.index(b"\0", o)].decode()
        pt("system-%s-name" % name)
        counts["system-%s-name" % name] = (o, None)
        o += len(name) + 1
        pt("system-%s-event-count" % name)
        counts["system-%s-event-count" % name] = (o, "I")
        nev = u32(d, o)
        o += 4
        for _ in range(nev):
            n = u64(d, o)
            text = d[o + 8:o + 8 + n].decode("latin-1")
            f = parse_format(text)
            f.update(system=name, size_off=o, text_off=o + 8, len=n)
            fmts.append(f)
            tag = "format-%s-%s" % (name, f["name"])
            pt(tag + "-size")
            counts[tag + "-size"] = (o, "Q")
            pt(tag + "-text", o + 8)
            pt(tag + "-fields", o + 8 + text.index("format:"))
            pt(tag + "-print-fmt", o + 8 + text.index("print fmt"))
            o += 8 + n
    for what, w in (("kallsyms", 4), ("printk", 4), ("saved-cmdlines", 8)):
        pt(what + "-size")
        counts[what + "-size"] = (o, "I" if w == 4 else "Q")
        n = u32(d, o) if w == 4 else u64(d, o)
        o += w
        if n:
            pt(what + "-text")
            pt(what + "-text-mid", o + n // 2)
        o += n
    assert o - base <= size, "tracing data parse overran its section"
    pts.append(("last-byte", o - 1))      # pipe mode pads the payload: o, not base + size
    return {"points": pts, "counts": counts, "formats": fmts, "end": o}


class Recording:
    """A parsed fixture: attrs, records, features and tracing data."""

    def __init__(self, data):
        d = self.d = data
        if d[:8] != MAGIC:
            raise SystemExit("corrupt.py: not a PERFILE2 file")
        self.pipe = u64(d, 8) == 16
        self.attrs, self.recs, self.feats, self.td = [], [], [], None
        (self.parse_pipe if self.pipe else self.parse_file)()
        self.id2attr = {i: a for a in self.attrs for i in a["ids"]}
        self.formats = {f["id"]: f for f in self.td["formats"]}
        for r in self.recs:
            if r["type"] == 9:
                a = self.attr_of_sample(r)
                r["attr"] = a
                r["fields"] = parse_sample(d, r["off"], a["sample_type"])
                r["format"] = self.formats.get(a["config"])

    def attr_of_sample(self, r):
        if len(self.attrs) == 1:
            return self.attrs[0]
        st = self.attrs[0]["sample_type"]
        f = parse_sample(self.d, r["off"], st)
        return self.id2attr[u64(self.d, f["identifier" if st & S_IDENTIFIER else "id"])]

    def attr_at(self, off, ids):
        d = self.d
        size = u32(d, off + 4) or 64
        return {"off": off, "size": size, "type": u32(d, off), "config": u64(d, off + 8),
                "sample_type": u64(d, off + 24), "flags": u64(d, off + 40), "ids": ids}

    def parse_file(self):
        d = self.d
        (self.hsize, self.attr_size, self.a_off, self.a_size, self.d_off, self.d_size,
         _, _) = struct.unpack_from("<8Q", d, 8)
        self.bitmap = struct.unpack_from("<4Q", d, 72)
        pos = self.a_off
        for _ in range(self.a_size // self.attr_size):
            sz = u32(d, pos + 4) or 64
            ioff, isize = u64(d, pos + sz), u64(d, pos + sz + 8)
            a = self.attr_at(pos, [u64(d, ioff + 8 * i) for i in range(isize // 8)])
            a.update(ids_sec=pos + sz, ids_off=ioff, ids_size=isize)
            self.attrs.append(a)
            pos += sz + 16
        pos, end = self.d_off, self.d_off + self.d_size
        while pos < end:
            t, misc, sz = struct.unpack_from("<IHH", d, pos)
            self.recs.append({"off": pos, "type": t, "misc": misc, "size": sz})
            pos += sz
        assert pos == end, "records do not end at the data section end"
        self.idx_off = end
        k = 0
        for bit in range(256):
            if self.bitmap[bit // 64] >> (bit % 64) & 1:
                e = self.idx_off + 16 * k
                self.feats.append({"bit": bit, "entry": e, "off": u64(d, e), "size": u64(d, e + 8)})
                k += 1
        td = [f for f in self.feats if f["bit"] == 1][0]
        self.td = parse_td(d, td["off"], td["size"])
        self.td_feat = td

    def parse_pipe(self):
        d = self.d
        pos = 16
        while pos < len(d):
            t, misc, sz = struct.unpack_from("<IHH", d, pos)
            r = {"off": pos, "type": t, "misc": misc, "size": sz}
            self.recs.append(r)
            if t == 64:
                a = self.attr_at(pos + 8, [])
                a["ids"] = [u64(d, o) for o in range(pos + 8 + a["size"], pos + sz, 8)]
                self.attrs.append(a)
            elif t == 80:
                self.feats.append({"bit": u64(d, pos + 8), "rec": pos, "off": pos + 16,
                                   "size": sz - 16})
            elif t == 66:
                r["tsize"] = u32(d, pos + 8)
                r["padded"] = (r["tsize"] + 7) & ~7
                self.td = parse_td(d, pos + sz, r["tsize"])
                self.td_rec = r
                pos += r["padded"]
            pos += sz
        assert pos == len(d), "pipe stream does not end at a record boundary"

    def first(self, t):
        return next((r for r in self.recs if r["type"] == t), None)

    def types(self):
        seen = []
        for r in self.recs:
            if r["type"] not in seen:
                seen.append(r["type"])
        return seen

    def dump(self):
        d = self.d
        print("%s mode, %d bytes, %d attrs, %d records" %
              ("pipe" if self.pipe else "file", len(d), len(self.attrs), len(self.recs)))
        if not self.pipe:
            print("header: attr_size %d attrs [0x%x,+0x%x) data [0x%x,+0x%x) index 0x%x" %
                  (self.attr_size, self.a_off, self.a_size, self.d_off, self.d_size,
                   self.idx_off))
        for a in self.attrs:
            print("attr @0x%x size %d config %d sample_type 0x%x ids %s" %
                  (a["off"], a["size"], a["config"], a["sample_type"], a["ids"]))
        counts = {}
        for r in self.recs:
            counts[r["type"]] = counts.get(r["type"], 0) + 1
        for t in self.types():
            r = self.first(t)
            print("record %-20s x%-4d first @0x%x size %d" % (REC.get(t, t), counts[t], r["off"], r["size"]))
        for f in self.feats:
            print("feature %-15s payload [0x%x,+0x%x)" % (FEAT.get(f["bit"], f["bit"]), f["off"], f["size"]))
        for name, off in self.td["points"]:
            print("tracing data %-40s @0x%x" % (name, off))
        for f in self.td["formats"]:
            print("format %s:%s id %s fields %s" % (f["system"], f["name"], f["id"],
                  [(x["name"], x["offset"], x["size"]) for x in f["fields"]]))


# ---------------------------------------------------------------- variants

class Writer:
    def __init__(self, outdir, prefix):
        self.outdir, self.prefix, self.names = outdir, prefix, set()
        os.makedirs(outdir, exist_ok=True)
        self.manifest = open(os.path.join(outdir, "MANIFEST"), "a")
        self.n = {MUST: 0, MAY: 0, LOSE: 0}

    def add(self, cls, name, data, what):
        name = re.sub(r"[^a-z0-9.+-]+", "-", ("%s-%s" % (self.prefix, name)).lower())
        assert name not in self.names, "duplicate variant " + name
        self.names.add(name)
        fn = name + ".data"
        with open(os.path.join(self.outdir, fn), "wb") as f:
            f.write(data)
        self.manifest.write("%s\t%s\t%d\t%s\n" % (cls, fn, len(data), what))
        self.n[cls] += 1

    def close(self):
        self.manifest.close()


def trunc(w, rec, at, region, cls=MUST):
    w.add(cls, "trunc-%s-at-0x%x" % (region, at), rec.d[:at],
          "file cut to %d bytes (inside %s)" % (at, region))


def record_cuts(rec):
    """Offsets inside the first record of every type (and of every sample's
    event): in its header, at its body, mid-body, its last byte."""
    seen = set()
    for r in rec.recs:
        t = r["type"]
        key = (t, r["format"]["name"] if t == 9 else None)
        if key in seen:
            continue
        seen.add(key)
        name = "sample-" + r["format"]["name"] if t == 9 else REC.get(t, "type%d" % t)
        o, s = r["off"], r["size"]
        cuts = [("header", o + 4), ("size-field", o + 7), ("body", o + 8),
                ("mid", o + s // 2), ("last-byte", o + s - 1)]
        if t == 9:
            f = r["fields"]
            cuts += [("raw-size", f["raw-size"] + 2), ("raw", f["raw"] + f["raw-len"] // 2)]
        done = set()
        for where, at in cuts:
            if o < at < o + s and at not in done:
                done.add(at)
                yield name, where, at


def file_variants(w, rec):
    d, L = rec.d, len(rec.d)

    # --- truncations: header, ids, attrs
    for at, what in ((0, "empty"), (4, "magic"), (8, "header-size"), (12, "header-size"),
                     (16, "attr-size"), (24, "attrs-offset"), (32, "attrs-size"),
                     (40, "data-offset"), (48, "data-size"), (56, "event-types"),
                     (64, "event-types"), (72, "features"), (88, "features"), (103, "features")):
        trunc(w, rec, at, "header-" + what)
    for i, a in enumerate(rec.attrs):
        trunc(w, rec, a["ids_off"] + 4, "ids-of-attr%d" % i)
        for what, rel in (("type", 2), ("size", 6), ("config", 12), ("sample-type", 28),
                          ("flags", 44), ("mid", 100), ("ids-section", a["size"] + 4),
                          ("ids-size", a["size"] + 12)):
            trunc(w, rec, a["off"] + rel, "attr%d-%s" % (i, what))
    # --- truncations: every record type, in the file (fails on the data bounds)
    #     and with the data section itself ending inside the record (a
    #     consistent file whose last record is cut short)
    for name, where, at in record_cuts(rec):
        trunc(w, rec, at, "%s-%s" % (name, where))
        w.add(MUST, "datacut-%s-%s-at-0x%x" % (name, where, at), data_cut(rec, at),
              "data section ends at 0x%x, inside a %s record (%s); features moved up" %
              (at, name, where))
    # --- truncations: the feature index, every payload, the tracing data
    for i, f in enumerate(rec.feats):
        fname = FEAT.get(f["bit"], "bit%d" % f["bit"])
        trunc(w, rec, f["entry"] + (4 if i % 2 else 12), "index-entry-%s" % fname)
        if f["size"] > 1 and f["bit"] != 1:
            trunc(w, rec, f["off"] + f["size"] // 2, "feature-%s" % fname, LOSE)
    trunc(w, rec, L - 1, "last-byte", LOSE)
    td = rec.td_feat
    for name, at in rec.td["points"]:
        if name.endswith("-text-mid") or name in ("magic", "version", "page-size",
                                                  "system-count", "last-byte"):
            trunc(w, rec, at + (name != "last-byte"), "tracing-data-" + name)
        # the section size in the index cut to end there: td_parse sees the cut
        for extra in ((0, 1) if name != "last-byte" else (0,)):
            k = at - td["off"] + extra
            w.add(MUST, "tdcut-%s%s" % (name, "-plus1" if extra else ""),
                  put(d, td["entry"] + 8, "Q", k),
                  "tracing data section size cut to %d (at %s%s)" %
                  (k, name, " + 1" if extra else ""))
    for f in rec.feats:
        if f["bit"] in (3, 7, 10, 11, 12):
            fname = FEAT[f["bit"]]
            for k in (0, 2, f["size"] // 2, f["size"] - 1):
                w.add(LOSE, "featcut-%s-size-%d" % (fname, k), put(d, f["entry"] + 8, "Q", k),
                      "%s section size cut from %d to %d" % (fname, f["size"], k))

    # --- absurd header values
    H = [("magic-perffile", 0, "8s", b"PERFFILE"), ("magic-swapped", 0, "8s", b"2ELIFREP"),
         ("magic-zero", 0, "Q", 0),
         ("header-size-0", 8, "Q", 0), ("header-size-105", 8, "Q", 105),
         ("header-size-16", 8, "Q", 16), ("header-size-huge", 8, "Q", HUGE64),
         ("attr-size-0", 16, "Q", 0), ("attr-size-1", 16, "Q", 1),
         ("attr-size-huge", 16, "Q", HUGE64), ("attr-size-200", 16, "Q", 200),
         ("attrs-offset-eof", 24, "Q", L), ("attrs-offset-huge", 24, "Q", 2**64 - 8),
         ("attrs-size-huge", 32, "Q", HUGE64), ("attrs-size-0", 32, "Q", 0),
         ("attrs-size-past-eof", 32, "Q", L),
         ("attrs-size-two-attrs", 32, "Q", 2 * rec.attr_size),
         ("data-offset-eof", 40, "Q", L + 1), ("data-offset-huge", 40, "Q", 2**64 - 8),
         ("data-size-huge", 48, "Q", HUGE64), ("data-size-0", 48, "Q", 0),
         ("data-size-file", 48, "Q", L), ("data-size-max", 48, "Q", 2**64 - 1),
         ("features-all", 72, "4Q", None)]
    for name, off, fmt, val in H:
        if fmt == "4Q":
            b = bytearray(d)
            struct.pack_into("<4Q", b, off, *(2**64 - 1,) * 4)
            data = bytes(b)
        else:
            data = put(d, off, fmt, val)
        w.add(MUST, "absurd-" + name, data, "header field at 0x%x set to %r" % (off, val))
    w.add(MAY, "odd-header-size-72", put(d, 8, "Q", 72),
          "header size 72 (old header, no feature bitmap): no tracing data")
    w.add(MAY, "odd-features-none", put(d, 72, "Q", 0), "feature bitmap cleared: no tracing data")
    w.add(MAY, "odd-data-size-plus8", put(d, 48, "Q", rec.d_size + 8),
          "data size + 8: the index is read 8 bytes late")
    w.add(MAY, "odd-attr-size-152", put(d, 16, "Q", 152), "attr_size 152 (attrs size / 152 = 2)")
    w.add(MAY, "odd-attrs-size-one-attr", put(d, 32, "Q", rec.attr_size),
          "attrs section holds only attr 0: every record maps to it")

    # --- absurd attr and ids values
    for i, a in enumerate(rec.attrs):
        o = a["off"]
        for v in (0, 8, 65, 136, 200, 0xFFFFFFFF):
            # 136: a newer ABI's size, read for its first 128 bytes (the ids
            # then come from the wrong place, which may still decode)
            cls = MAY if v == 136 else MUST
            w.add(cls, "%s-attr%d-size-%d" % ("odd" if cls == MAY else "absurd", i, v),
                  put(d, o + 4, "I", v), "attr %d size (at 0x%x) set to %d" % (i, o + 4, v))
        for name, v in (("read", a["sample_type"] | S_READ), ("all", 2**64 - 1),
                        ("no-id", a["sample_type"] & ~S_ID)):
            w.add(MUST, "absurd-attr%d-sample-type-%s" % (i, name), put(d, o + 24, "Q", v),
                  "attr %d sample_type (at 0x%x) set to 0x%x" % (i, o + 24, v))
        w.add(MUST, "absurd-attr%d-ids-offset-eof" % i, put(d, a["ids_sec"], "Q", L),
              "attr %d ids offset (at 0x%x) set to the file size" % (i, a["ids_sec"]))
        w.add(MUST, "absurd-attr%d-ids-size-huge" % i, put(d, a["ids_sec"] + 8, "Q", HUGE64),
              "attr %d ids size (at 0x%x) set huge" % (i, a["ids_sec"] + 8))
        w.add(MUST, "absurd-attr%d-ids-size-12" % i, put(d, a["ids_sec"] + 8, "Q", 12),
              "attr %d ids size (at 0x%x) set to 12 (not a multiple of 8)" % (i, a["ids_sec"] + 8))
        w.add(MUST, "absurd-attr%d-ids-size-0" % i, put(d, a["ids_sec"] + 8, "Q", 0),
              "attr %d has no ids: its samples name an unknown id" % i)
        if i:
            w.add(MUST, "absurd-attr%d-no-sample-id-all" % i,
                  put(d, o + 40, "Q", a["flags"] & ~SAMPLE_ID_ALL),
                  "attr %d sample_id_all cleared (at 0x%x): non matching" % (i, o + 40))
        w.add(MAY, "odd-attr%d-config-unknown" % i, put(d, o + 8, "Q", 0xFFFF),
              "attr %d config (at 0x%x) 0xffff: no such tracepoint format" % (i, o + 8))
        w.add(MAY, "odd-attr%d-type-hw" % i, put(d, o, "I", 0),
              "attr %d type (at 0x%x) set to 0 (hardware)" % (i, o))

    # --- feature index and payloads
    for f in rec.feats:
        fname = FEAT.get(f["bit"], "bit%d" % f["bit"])
        cls = MUST if f["bit"] == 1 else LOSE
        w.add(cls, "absurd-index-%s-offset-eof" % fname, put(d, f["entry"], "Q", L + 16),
              "feature %s offset (index entry at 0x%x) set past EOF" % (fname, f["entry"]))
        if f["bit"] in (1, 3, 7, 11, 12, 13, 22, 31):
            w.add(cls, "absurd-index-%s-size-huge" % fname, put(d, f["entry"] + 8, "Q", HUGE64),
                  "feature %s size (index entry at 0x%x) set huge" % (fname, f["entry"] + 8))
    feat = {f["bit"]: f for f in rec.feats}
    payload_absurd(w, d, feat)
    td_absurd(w, rec, d)
    cmdlines_variants(w, rec)
    attrs_all(w, rec, d)
    record_absurd(w, rec, d)
    flips(w, rec, d)


def attrs_all(w, rec, d):
    """The same change to every attr: other decoding paths, garbage results."""
    for name, what, f in (
            ("no-sample-id-all", "sample_id_all cleared (records in file order, no trailers)",
             lambda a: (40, a["flags"] & ~SAMPLE_ID_ALL)),
            ("identifier", "IDENTIFIER added to sample_type",
             lambda a: (24, a["sample_type"] | S_IDENTIFIER)),
            ("callchain", "CALLCHAIN added to sample_type",
             lambda a: (24, a["sample_type"] | S_CALLCHAIN)),
            ("stream-id", "STREAM_ID added to sample_type",
             lambda a: (24, a["sample_type"] | S_STREAM_ID)),
            ("no-raw", "RAW removed from sample_type",
             lambda a: (24, a["sample_type"] & ~S_RAW))):
        b = d
        for a in rec.attrs:
            rel, v = f(a)
            b = put(b, a["off"] + rel, "Q", v)
        w.add(MAY, "odd-all-attrs-" + name, b, "every attr: " + what)


def data_cut(rec, at):
    """The file with its data section ending at @at (absolute) and the
    feature index and payloads moved up so the rest stays consistent."""
    d = rec.d
    delta = rec.d_off + rec.d_size - at
    b = bytearray(d[:at] + d[rec.d_off + rec.d_size:])
    struct.pack_into("<Q", b, 48, at - rec.d_off)
    for f in rec.feats:
        e = f["entry"] - delta
        if u64(b, e) >= rec.idx_off:
            struct.pack_into("<Q", b, e, u64(b, e) - delta)
    return bytes(b)


def payload_absurd(w, d, feat):
    def at(bit):
        return feat[bit]["off"] if bit in feat else None
    for bit in (3, 9):
        if at(bit) is not None:
            for v, what in ((0xFFFFFFFF, "huge"), (0, "0"), (1, "1")):
                w.add(LOSE, "absurd-%s-strlen-%s" % (FEAT[bit], what), put(d, at(bit), "I", v),
                      "%s string length (at 0x%x) set to %d" % (FEAT[bit], at(bit), v))
    if at(11) is not None:
        o = at(11)
        w.add(LOSE, "absurd-cmdline-count-huge", put(d, o, "I", 0xFFFFFFFF),
              "cmdline string count (at 0x%x) set to 0xffffffff" % o)
        w.add(LOSE, "absurd-cmdline-str0-len-huge", put(d, o + 4, "I", 0x7FFFFFFF),
              "cmdline first string length (at 0x%x) set huge" % (o + 4))
    if at(12) is not None:
        o = at(12)
        w.add(LOSE, "absurd-event-desc-count-huge", put(d, o, "I", 0xFFFFFFFF),
              "event desc count (at 0x%x) set to 0xffffffff" % o)
        for v in (0, 0xFFFFFFFF):
            w.add(LOSE, "absurd-event-desc-attr-size-%x" % v, put(d, o + 4, "I", v),
                  "event desc attr size (at 0x%x) set to 0x%x" % (o + 4, v))
        asz = u32(d, o + 4)
        w.add(LOSE, "absurd-event-desc-nr-ids-huge", put(d, o + 8 + asz, "I", 0x7FFFFFFF),
              "event desc 0 id count (at 0x%x) set huge" % (o + 8 + asz))
        w.add(LOSE, "absurd-event-desc-name-len-huge", put(d, o + 12 + asz, "I", 0x7FFFFFFF),
              "event desc 0 name length (at 0x%x) set huge" % (o + 12 + asz))


def td_absurd(w, rec, d):
    c = rec.td["counts"]

    def set_(name, val, what, cls=MUST):
        off, fmt = c[name]
        if fmt is None:
            data = d[:off] + val + d[off + len(val):]
        else:
            data = put(d, off, fmt, val)
        w.add(cls, "td-%s-%s" % (name, what), data,
              "tracing data %s (at 0x%x) set to %r" % (name, off, val))
    base = rec.td["points"][0][1]
    w.add(MUST, "td-magic-bad", d[:base] + b"\x17\x08\x45" + d[base + 3:],
          "tracing data magic (at 0x%x) altered" % base)
    vo = base + 10
    w.add(MUST, "td-version-no-nul", d[:vo] + b"A" * 24 + d[vo + 24:],
          "tracing data version (at 0x%x) and what follows overwritten without a NUL" % vo)
    w.add(MAY, "td-version-0.5", d[:vo] + b"0.5" + d[vo + 3:],
          "tracing data version 0.5 (no saved cmdlines block)")
    set_("endian", 2, "2")
    set_("long-size", 3, "3")
    set_("page-size", 0, "0")
    set_("page-size", 0xFFFFFFFF, "huge", MAY)
    set_("header-page-tag", b"header_pagX", "bad")
    set_("header-event-tag", b"header_evenX", "bad")
    for n in ("header-page-size", "header-event-size"):
        set_(n, 0x7FFFFFFFFFFFFFFF, "huge")
        set_(n, 2**64 - 1, "max")
    set_("header-page-size", 0, "0")
    for n in ("ftrace-count", "system-count"):
        set_(n, 0xFFFFFFFF, "huge")
        set_(n, 0x10000, "64k")
    set_("system-count", 0, "0", MAY)
    for n in [k for k in c if k.endswith("-event-count")]:
        set_(n, 0xFFFFFFFF, "huge")
    for n in [k for k in c if k.startswith("system-") and k.endswith("-name")]:
        off = c[n][0]
        w.add(MUST, "td-%s-no-nul" % n, d[:off] + b"s" * 300 + d[off + 300:],
              "tracing data %s (at 0x%x) overwritten with 300 non-NUL bytes" % (n, off))
    for f in rec.td["formats"]:
        tag = "format-%s-%s" % (f["system"], f["name"])
        set_(tag + "-size", 0, "0")
        set_(tag + "-size", 2**63, "huge")
        t = f["text_off"]
        w.add(MUST, "td-%s-not-a-format" % tag, d[:t] + b"X" * 8 + d[t + 8:],
              "format %s text (at 0x%x): 'name:' overwritten" % (tag, t))
        text = d[t:t + f["len"]]
        q1 = text.index(b'"', text.index(b"print fmt")) + 1
        q2 = text.index(b'"', q1)
        junk = (b"%s%d%p%s" * 40)[:q2 - q1]
        w.add(MAY, "td-%s-print-fmt-conversions" % tag, overwrite(d, t + q1, junk),
              "format %s print fmt string (at 0x%x) replaced by %%s/%%d/%%p conversions"
              % (tag, t + q1))
        last = list(re.finditer(rb"\toffset:(\d+);\tsize:(\d+);", text))[-1]
        for g, what in ((1, "offset"), (2, "size")):
            o = t + last.start(g)
            w.add(MAY, "td-%s-last-field-%s-9s" % (tag, what),
                  overwrite(d, o, b"9" * (last.end(g) - last.start(g))),
                  "format %s last field's %s (at 0x%x) made all 9s" % (tag, what, o))
    for n in ("kallsyms-size", "printk-size"):
        set_(n, 0xFFFFFFFF, "huge")
    set_("saved-cmdlines-size", 2**63, "huge")
    set_("saved-cmdlines-size", 2**64 - 1, "max")


def sample_of(rec, name):
    return next((r for r in rec.recs if r["type"] == 9 and r.get("format") and
                 r["format"]["name"] == name), None)


def record_absurd(w, rec, d):
    """Record sizes 0/4/7/65535 for every type, short bodies, bad counts, bad samples."""
    first = {}
    for r in rec.recs:
        first.setdefault(r["type"], r)
    end = len(d) if rec.pipe else rec.d_off + rec.d_size
    for t, r in first.items():
        name = REC.get(t, "type%d" % t)
        o = r["off"]
        for v in (0, 4, 7, 65535):
            if t == 66 and v == 65535:
                continue
            w.add(MUST, "absurd-%s-size-%d" % (name, v), put(d, o + 6, "H", v),
                  "%s record at 0x%x: size set to %d" % (name, o, v))
        if r["size"] >= 16 and t != 66:
            w.add(MAY, "odd-%s-size-minus8" % name, put(d, o + 6, "H", r["size"] - 8),
                  "%s record at 0x%x: size %d -> %d" % (name, o, r["size"], r["size"] - 8))
        if o + r["size"] + 8 <= end and t != 66:
            w.add(MAY, "odd-%s-size-plus8" % name, put(d, o + 6, "H", r["size"] + 8),
                  "%s record at 0x%x: size %d -> %d" % (name, o, r["size"], r["size"] + 8))
        w.add(MAY, "odd-%s-type-unknown" % name, put(d, o, "I", 63),
              "%s record at 0x%x: type set to 63" % (name, o))
    # bodies shorter than the record type needs
    for t, short in ((3, 16), (7, 24), (4, 24), (10, 16), (1, 16), (9, 16), (69, 8), (73, 8), (74, 8)):
        if t in first:
            r = first[t]
            w.add(MUST, "absurd-%s-short-%d" % (REC[t], short), put(d, r["off"] + 6, "H", short),
                  "%s record at 0x%x: size %d -> %d (body too short)" %
                  (REC[t], r["off"], r["size"], short))
    for t in (69, 73):
        if t in first:
            r = first[t]
            w.add(MUST, "absurd-%s-count-huge" % REC[t], put(d, r["off"] + 8, "Q", 2**63),
                  "%s record at 0x%x: count set to 2^63" % (REC[t], r["off"]))
            w.add(MUST, "absurd-%s-count-plus1" % REC[t],
                  put(d, r["off"] + 8, "Q", u64(d, r["off"] + 8) + 1),
                  "%s record at 0x%x: count one more than fits" % (REC[t], r["off"]))
    if 3 in first:
        r = first[3]
        st = rec.attrs[0]["sample_type"]
        o, tr = r["off"], 8 * bin(st & (S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU |
                                        S_IDENTIFIER)).count("1")
        w.add(MAY, "odd-comm-no-nul", d[:o + 16] + b"C" * (r["size"] - 16 - tr) +
              d[o + r["size"] - tr:], "comm record at 0x%x: name without a NUL" % o)
    # samples
    for ev in sorted({r["format"]["name"] for r in rec.recs if r.get("format")}):
        r = sample_of(rec, ev)
        f, o = r["fields"], r["off"]
        tag = "sample-" + ev
        idf = "identifier" if "identifier" in f else "id"
        w.add(MUST, "absurd-%s-id-unknown" % tag, put(d, f[idf], "Q", 0xDEADBEEF),
              "%s at 0x%x: id (at 0x%x) set to 0xdeadbeef" % (tag, o, f[idf]))
        w.add(MAY, "odd-%s-id-0" % tag, put(d, f[idf], "Q", 0),
              "%s at 0x%x: id 0 (means the first attr)" % (tag, o))
        for v, cls in ((0xFFFFFFFF, MUST), (f["raw-len"] + 4, MUST),
                       (r["size"] - (f["raw"] - o) + 1, MUST), (0, MAY), (4, MAY)):
            w.add(cls, "%s-%s-raw-size-%d" % ("absurd" if cls == MUST else "odd", tag, v),
                  put(d, f["raw-size"], "I", v),
                  "%s at 0x%x: raw_size (at 0x%x) %d -> %d" % (tag, o, f["raw-size"],
                                                              f["raw-len"], v))
        for name, v in (("time-0", 0), ("time-max", 2**64 - 1)):
            w.add(MAY, "odd-%s-%s" % (tag, name), put(d, f["time"], "Q", v),
                  "%s at 0x%x: time (at 0x%x) set to 0x%x" % (tag, o, f["time"], v))
        w.add(MAY, "odd-%s-cpu-huge" % tag, put(d, f["cpu"], "I", 0xFFFFFFF0),
              "%s at 0x%x: cpu (at 0x%x) set to 0xfffffff0" % (tag, o, f["cpu"]))
        w.add(MAY, "odd-%s-pid-negative" % tag, put(d, f["pid"], "Q", 2**64 - 2),
              "%s at 0x%x: pid/tid (at 0x%x) set to -2" % (tag, o, f["pid"]))
        w.add(MAY, "odd-%s-common-type" % tag, put(d, f["raw"], "H", 0xFFFF),
              "%s at 0x%x: common_type (at 0x%x) set to 0xffff" % (tag, o, f["raw"]))
        for fld in r["format"]["fields"]:
            if not fld["data_loc"]:
                continue
            at = f["raw"] + fld["offset"]
            loc = u32(d, at)
            for what, v in (("offset-ffff", 0xFFFF | (loc & 0xFFFF0000)),
                            ("len-ffff", 0xFFFF0000 | (loc & 0xFFFF)),
                            ("both-ffff", 0xFFFFFFFF),
                            ("past-raw", (f["raw-len"] & 0xFFFF) | 0x00010000),
                            ("len-past-raw", (loc & 0xFFFF) | ((f["raw-len"] - (loc & 0xFFFF) + 1) << 16))):
                w.add(MUST, "absurd-%s-%s-data-loc-%s" % (tag, fld["name"], what),
                      put(d, at, "I", v), "%s at 0x%x: __data_loc %s (at 0x%x) 0x%08x -> 0x%08x"
                      % (tag, o, fld["name"], at, loc, v))
            w.add(MAY, "odd-%s-%s-data-loc-len-0" % (tag, fld["name"]),
                  put(d, at, "I", loc & 0xFFFF),
                  "%s at 0x%x: __data_loc %s (at 0x%x) length 0" % (tag, o, fld["name"], at))
            s, n = loc & 0xFFFF, loc >> 16
            w.add(MAY, "odd-%s-%s-string-no-nul" % (tag, fld["name"]),
                  d[:f["raw"] + s + n - 1] + b"Z" + d[f["raw"] + s + n:],
                  "%s at 0x%x: %s string's NUL (at 0x%x) overwritten" %
                  (tag, o, fld["name"], f["raw"] + s + n - 1))


def flips(w, rec, d):
    """Byte flips (x ^ 0xff) at chosen offsets, each classed by what it breaks."""
    L = len(d)
    done = set()

    def fl(off, cls, what):
        if off in done or off >= L:
            return
        done.add(off)
        w.add(cls, "flip-0x%x-%s" % (off, what), flip(d, off),
              "byte at 0x%x (%s) xor 0xff" % (off, what))
    for o in (0, 3, 7):
        fl(o, MUST, "magic")
    if not rec.pipe:
        fl(8, MUST, "header-size")
        fl(15, MUST, "header-size-high")
        fl(16, MAY, "attr-size")
        for o, n in ((31, "attrs-offset-high"), (39, "attrs-size-high"),
                     (47, "data-offset-high"), (55, "data-size-high")):
            fl(o, MUST, n)
        fl(56, MAY, "event-types")
        for i, a in enumerate(rec.attrs):
            fl(a["off"] + 4, MUST, "attr%d-size" % i)
            fl(a["off"] + 8, MAY, "attr%d-config" % i)
            st = a["sample_type"] ^ 0xFF
            fl(a["off"] + 24, MUST if st & ~S_KNOWN else MAY, "attr%d-sample-type" % i)
            fl(a["ids_sec"] + 7, MUST, "attr%d-ids-offset-high" % i)
            fl(a["ids_off"], MAY, "attr%d-id0" % i)
        for f in rec.feats:
            if f["bit"] in (1, 3, 7, 11, 12):
                cls = MUST if f["bit"] == 1 else LOSE
                fl(f["entry"] + 7, cls, "index-%s-offset-high" % FEAT[f["bit"]])
                fl(f["entry"] + 14, cls, "index-%s-size-high" % FEAT[f["bit"]])
    else:
        fl(8, MUST, "pipe-header-size")
        for i, a in enumerate(rec.attrs):
            fl(a["off"] + 4, MUST, "attr%d-size" % i)
            fl(a["off"] + 8, MAY, "attr%d-config" % i)
            fl(a["off"] + 24, MUST, "attr%d-sample-type" % i)
    # tracing data
    c = rec.td["counts"]
    base = rec.td["points"][0][1]
    for o, n in ((base, "td-magic"), (base + 5, "td-magic-tracing"),
                 (c["endian"][0], "td-endian"), (c["long-size"][0], "td-long-size"),
                 (c["header-page-tag"][0] + 3, "td-header-page-tag"),
                 (c["header-page-size"][0] + 7, "td-header-page-size-high"),
                 (c["header-event-tag"][0] + 3, "td-header-event-tag"),
                 (c["ftrace-count"][0] + 3, "td-ftrace-count-high"),
                 (c["system-count"][0] + 3, "td-system-count-high"),
                 (c["printk-size"][0] + 3, "td-printk-size-high"),
                 (c["saved-cmdlines-size"][0] + 7, "td-cmdlines-size-high")):
        fl(o, MUST, n)
    fl(c["page-size"][0], MAY, "td-page-size")
    fl(base + 11, MAY, "td-version")
    for f in rec.td["formats"]:
        t = f["text_off"]
        fl(f["size_off"] + 5, MUST, "td-format-%s-size-high" % f["name"])
        for rel in (20, f["len"] // 3, f["len"] // 2, f["len"] - 20):
            fl(t + rel, MAY, "td-format-%s-text" % f["name"])
    for name, off in rec.td["points"]:
        if name.endswith("-text-mid"):
            fl(off, MAY, "td-" + name)
    # record headers and sample fields
    seen = set()
    for r in rec.recs:
        t = r["type"]
        key = (t, r.get("attr", {}).get("config"))
        if key in seen or t == 66:
            continue
        seen.add(key)
        name = REC.get(t, "type%d" % t)
        if t == 9:
            name = "sample-" + r["format"]["name"]
        o = r["off"]
        fl(o, MAY, name + "-type")
        fl(o + 7, MUST, name + "-size-high")
        fl(o + 6, MAY, name + "-size-low")
        if t != 9:
            if r["size"] > 16:
                fl(o + r["size"] - 1, MAY, name + "-trailer")
            continue
        f = r["fields"]
        for fld in ("ip", "pid", "time", "cpu", "period"):
            if fld in f:
                fl(f[fld] + 1, MAY, "%s-%s" % (name, fld))
        idf = "identifier" if "identifier" in f else "id"
        if len(rec.attrs) > 1:
            fl(f[idf], MAY if u64(d, f[idf]) ^ 0xFF in rec.id2attr else MUST, name + "-id")
        new = f["raw-len"] ^ 0xFF
        fl(f["raw-size"], MUST if new > r["size"] - (f["raw"] - o) else MAY, name + "-raw-size")
        fl(f["raw-size"] + 3, MUST, name + "-raw-size-high")
        locs = set()
        for fld in r["format"]["fields"]:
            if fld["data_loc"]:
                locs.update(range(f["raw"] + fld["offset"], f["raw"] + fld["offset"] + 4))
        for k in range(f["raw-len"]):
            if f["raw"] + k not in locs:
                fl(f["raw"] + k, MAY, name + "-raw")


def pipe_variants(w, rec):
    d, L = rec.d, len(rec.d)
    for at in (0, 4, 8, 12, 15):
        trunc(w, rec, at, "pipe-header")
    # in every record type, header and body (HEADER_* too)
    seen = set()
    for r in rec.recs:
        t = r["type"]
        key = (t, r.get("attr", {}).get("config"), r["off"] if t in (64, 80) else None)
        if key in seen:
            continue
        seen.add(key)
        name = REC.get(t, "type%d" % t)
        if t == 9:
            name = "sample-" + r["format"]["name"]
        elif t == 80:
            name = "feature-" + FEAT.get(r["off"] and u64(d, r["off"] + 8), "end")
        elif t == 64:
            name = "attr-%d" % rec.attrs.index(next(a for a in rec.attrs if a["off"] == r["off"] + 8))
        o, s = r["off"], r["size"]
        cuts = [("header", o + 4), ("body", o + 8), ("mid", o + s // 2), ("last-byte", o + s - 1)]
        if t == 80 and s <= 24:
            cuts = cuts[:2]
        if t == 9:
            f = r["fields"]
            cuts += [("raw-size", f["raw-size"] + 2), ("raw", f["raw"] + f["raw-len"] // 2)]
        if t == 66:
            cuts = [("header", o + 4), ("tsize", o + 10)]
        for where, at in cuts:
            if o < at < o + s:
                trunc(w, rec, at, "%s-%s" % (name, where))
    # cuts at record boundaries are clean ends of a stream: may pass
    for r in (rec.first(64), rec.first(80), rec.first(69), rec.first(9), rec.recs[-1]):
        trunc(w, rec, r["off"], "boundary-before-" + REC[r["type"]], MAY)
    # tracing data: the file cut inside it, and the payload itself cut
    # (size field lowered, the records after it kept in place)
    tr = rec.td_rec
    tdo = tr["off"] + tr["size"]
    for name, at in rec.td["points"]:
        if name.endswith("-text-mid") or name in ("magic", "version", "page-size",
                                                  "system-count", "last-byte"):
            trunc(w, rec, at + (name != "last-byte"), "tracing-data-" + name)
        for extra in ((0, 1) if name != "last-byte" else (0,)):
            k = at - tdo + extra
            w.add(MUST, "tdcut-%s%s" % (name, "-plus1" if extra else ""), td_cut(rec, k),
                  "tracing data cut to %d bytes (at %s%s), size field lowered" %
                  (k, name, " + 1" if extra else ""))
    # HEADER_* records
    o = tr["off"]
    for v, cls in ((0xFFFFFFFF, MUST), (0, MUST), (0x10000000, MUST), (tr["tsize"] + 8, MAY),
                   (tr["tsize"] - 8, MAY)):
        w.add(cls, "header-tracing-data-size-%x" % v, put(d, o + 8, "I", v),
              "HEADER_TRACING_DATA at 0x%x: size %d -> %d" % (o, tr["tsize"], v))
    block = d[o:o + tr["size"] + tr["padded"]]
    end_hdr = rec.first(69)["off"]
    w.add(MUST, "header-tracing-data-twice", d[:end_hdr] + block + d[end_hdr:],
          "HEADER_TRACING_DATA record repeated at 0x%x" % end_hdr)
    w.add(MAY, "odd-no-tracing-data", d[:o] + d[o + len(block):],
          "HEADER_TRACING_DATA record removed")
    a0 = rec.first(64)["off"]
    attrs_end = a0 + sum(r["size"] for r in rec.recs if r["type"] == 64)
    w.add(MUST, "no-attrs", d[:a0] + d[attrs_end:], "every HEADER_ATTR record removed")
    w.add(MAY, "odd-tracing-data-before-attrs", d[:a0] + block + d[a0:o] + d[o + len(block):],
          "HEADER_TRACING_DATA moved before the HEADER_ATTRs")
    for i, a in enumerate(rec.attrs):
        ao = a["off"]
        for v, cls in ((0, MAY), (8, MUST), (136, MAY), (200, MUST), (0xFFFFFFFF, MUST)):
            w.add(cls, "%s-attr%d-size-%d" % ("absurd" if cls == MUST else "odd", i, v),
                  put(d, ao + 4, "I", v), "HEADER_ATTR %d: attr.size (at 0x%x) set to %d" % (i, ao + 4, v))
        w.add(MUST, "absurd-attr%d-sample-type-read" % i, put(d, ao + 24, "Q", a["sample_type"] | S_READ),
              "HEADER_ATTR %d: sample_type (at 0x%x) gets READ" % (i, ao + 24))
        w.add(MUST, "absurd-attr%d-record-no-attr" % i, put(d, ao - 2, "H", 8 + 32),
              "HEADER_ATTR %d record (at 0x%x) size 40: too short for an attr" % (i, ao - 8))
        if i:
            w.add(MUST, "absurd-attr%d-no-sample-id-all" % i,
                  put(d, ao + 40, "Q", a["flags"] & ~SAMPLE_ID_ALL),
                  "HEADER_ATTR %d: sample_id_all cleared (at 0x%x)" % (i, ao + 40))
    f0 = rec.first(80)
    w.add(MAY, "odd-header-feature-id-huge", put(d, f0["off"] + 8, "Q", 2**63),
          "HEADER_FEATURE at 0x%x: feature id 2^63" % f0["off"])
    feat = {f["bit"]: f for f in rec.feats}
    payload_absurd(w, d, feat)
    td_absurd(w, rec, d)
    cmdlines_variants(w, rec)
    attrs_all(w, rec, d)
    record_absurd(w, rec, d)
    flips(w, rec, d)


def with_cmdlines(rec, text):
    """The recording with @text as the tracing data's saved cmdlines (perf
    wrote none: ftrace's cmdline cache was empty) and every later offset moved."""
    d, n = rec.d, len(text)
    end = rec.td["end"]
    b = bytearray(d[:end] + text + d[end:])
    struct.pack_into("<Q", b, rec.td["counts"]["saved-cmdlines-size"][0], n)
    if rec.pipe:
        tr = rec.td_rec
        o = tr["off"] + tr["size"]
        size = end + n - o
        struct.pack_into("<I", b, tr["off"] + 8, size)
        pad = ((size + 7) & ~7) - size
        return bytes(b[:end + n]) + b"\0" * pad + d[o + tr["padded"]:]
    td = rec.td_feat
    struct.pack_into("<Q", b, td["entry"] + 8, td["size"] + n)
    for f in rec.feats:
        if f["off"] >= end:
            struct.pack_into("<Q", b, f["entry"], f["off"] + n)
    return bytes(b)


def cmdlines_variants(w, rec):
    """Saved cmdlines text (absent from the fixtures): valid, garbage, cut."""
    text = b"9949 sh\n9951 workload\n1 init\n"
    for name, t, cls in (("valid", text, MAY),
                         ("no-newline", b"12 abc", MAY),
                         ("garbage", bytes(range(1, 256)) * 2, MAY),
                         ("huge-pid", b"99999999999999999999999 x\n-5 y\n", MAY),
                         ("long-comm", b"7 " + b"c" * 5000 + b"\n", MAY),
                         ("nul-inside", b"7 ab\0cd\n8 ef\n", MAY)):
        w.add(cls, "td-cmdlines-" + name, with_cmdlines(rec, t),
              "tracing data saved cmdlines set to %d bytes of %s text" % (len(t), name))
    d2 = with_cmdlines(rec, text)
    r2 = Recording(d2)
    at = r2.td["counts"]["saved-cmdlines-size"][0] + 8 + len(text) // 2
    w.add(MUST, "trunc-td-cmdlines-text-at-0x%x" % at, d2[:at],
          "saved cmdlines of %d bytes added, file cut to %d bytes inside them" % (len(text), at))
    base = r2.td["points"][0][1]
    for k in (at - base, at - base + len(text) // 2 - 1):
        if r2.pipe:
            data = td_cut(r2, k)
        else:
            data = put(d2, r2.td_feat["entry"] + 8, "Q", k)
        w.add(MUST, "tdcut-cmdlines-text-%d" % k, data,
              "saved cmdlines of %d bytes added, tracing data cut to %d bytes inside them" %
              (len(text), k))


def td_cut(rec, k):
    """The pipe stream with the tracing data payload cut to @k bytes."""
    d, tr = rec.d, rec.td_rec
    o = tr["off"] + tr["size"]
    hdr = put(d[tr["off"]:o], 8, "I", k)
    pay = d[o:o + k] + b"\0" * (((k + 7) & ~7) - k)
    return d[:tr["off"]] + hdr + pay + d[o + tr["padded"]:]


def extra_variants(w):
    import random
    w.add(MUST, "empty", b"", "empty file")
    r = random.Random(8)
    w.add(MUST, "random-8", bytes(r.randrange(256) for _ in range(8)), "8 random bytes")
    w.add(MUST, "magic-only", MAGIC, "the magic alone")
    w.add(MUST, "garbage-4k", bytes(r.randrange(256) for _ in range(4096)),
          "4 KiB of random bytes")


def main(argv):
    dump = "--dump" in argv
    argv = [a for a in argv if a != "--dump"]
    if len(argv) not in (1, 2, 3) or (len(argv) == 1 and not dump):
        raise SystemExit(__doc__)
    with open(argv[0], "rb") as f:
        rec = Recording(f.read())
    if dump:
        rec.dump()
        return
    prefix = argv[2] if len(argv) > 2 else ("pipe" if rec.pipe else "file")
    w = Writer(argv[1], prefix)
    if rec.pipe:
        pipe_variants(w, rec)
    else:
        file_variants(w, rec)
        m = Writer(argv[1], "misc")
        extra_variants(m)
        m.close()
    w.close()
    print("%s: %d must-fail, %d lose-feature, %d may-pass variants" %
          (prefix, w.n[MUST], w.n[LOSE], w.n[MAY]))


if __name__ == "__main__":
    main(sys.argv[1:])
