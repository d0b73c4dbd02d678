#!/usr/bin/env python3
"""pdswap.py [--long32] IN OUT - write perf.data IN (file or pipe mode) in the other
byte order, as a machine of that order would have written it: the header,
the attrs (their flag bitfield laid out from the other end of each byte, as
a big-endian compiler does), the ids, every record by its type, every
sample field by its attr's sample_type, read_format, branch_sample_type and
register masks, the feature sections by their layouts, and the tracing
data (its endian byte, its sizes, and each tracepoint's RAW payload field by
field from the formats: numbers by their size, arrays element by element,
__data_loc words; strings, the user stack dump and AUX data are memory and
keep their bytes). --long32 writes the feature bitmap as a 32-bit
machine's u32 longs (the rest stays 64-bit). COMPRESSED records are decompressed (libzstd), swapped,
and compressed again, one zstd frame each: their sizes change, and the
offsets after them move. Swapping twice gives back IN byte for byte, except
COMPRESSED payloads, which compress anew."""
# SPDX-License-Identifier: GPL-2.0-only
import ctypes
import ctypes.util
import functools
import re
import struct
import subprocess
import sys

# sample_type bits
IDENTIFIER, IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD = \
    1 << 16, 1, 2, 4, 8, 16, 32, 64, 128, 256
STREAM_ID, RAW, BRANCH, REGS_USER, STACK_USER = 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13
WEIGHT, DATA_SRC, TRANSACTION, REGS_INTR = 1 << 14, 1 << 15, 1 << 17, 1 << 18
PHYS_ADDR, AUX, CGROUP, DATA_PAGE, CODE_PAGE, WEIGHT_STRUCT = (1 << b for b in range(19, 25))
# read_format
RF_ENABLED, RF_RUNNING, RF_ID, RF_GROUP, RF_LOST = 1, 2, 4, 8, 16
ATTR_FIELDS = [(8, 8), (16, 8), (24, 8), (32, 8), (48, 4), (52, 4), (56, 8), (64, 8),
               (72, 8), (80, 8), (88, 4), (92, 4), (96, 8), (104, 4), (108, 2), (110, 2),
               (112, 4), (116, 4), (120, 8)]
# 6.1 branch_flags bitfields: (lsb on a little-endian machine, width)
BRANCH_FIELDS = [(0, 1), (1, 1), (2, 1), (3, 1), (4, 16), (20, 4), (24, 2), (26, 4),
                 (30, 3), (33, 31)]
TYPE_SIZES = {"char": 1, "u8": 1, "s8": 1, "__u8": 1, "bool": 1, "short": 2, "u16": 2,
              "s16": 2, "__u16": 2, "int": 4, "u32": 4, "s32": 4, "__u32": 4, "pid_t": 4,
              "long": 8, "u64": 8, "s64": 8, "__u64": 8, "size_t": 8, "dma_addr_t": 8}


class ZBuf(ctypes.Structure):
    _fields_ = [("p", ctypes.c_void_p), ("size", ctypes.c_size_t), ("pos", ctypes.c_size_t)]


@functools.lru_cache(maxsize=None)
def libzstd():
    z = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
    z.ZSTD_createDStream.restype = ctypes.c_void_p
    z.ZSTD_decompressStream.restype = ctypes.c_size_t
    z.ZSTD_decompressStream.argtypes = [ctypes.c_void_p, ctypes.POINTER(ZBuf),
                                        ctypes.POINTER(ZBuf)]
    z.ZSTD_isError.argtypes = [ctypes.c_size_t]
    z.ZSTD_compressBound.restype = ctypes.c_size_t
    z.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
    z.ZSTD_compress.restype = ctypes.c_size_t
    z.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                ctypes.c_size_t, ctypes.c_int]
    return z


def zstd_stream(payloads):
    """the text each payload of one zstd stream gives, payload by payload
    (perf flushes, it does not end a frame per record)"""
    z = libzstd()
    ds = ctypes.c_void_p(z.ZSTD_createDStream())
    z.ZSTD_initDStream(ds)
    outs, cap = [], 1 << 20
    obuf = ctypes.create_string_buffer(cap)
    for pl in payloads:
        ibuf = ctypes.create_string_buffer(pl, len(pl))
        inb = ZBuf(ctypes.cast(ibuf, ctypes.c_void_p), len(pl), 0)
        got = bytearray()
        while True:
            outb = ZBuf(ctypes.cast(obuf, ctypes.c_void_p), cap, 0)
            r = z.ZSTD_decompressStream(ds, ctypes.byref(outb), ctypes.byref(inb))
            if z.ZSTD_isError(r):
                sys.exit("pdswap: zstd: bad COMPRESSED payload")
            got += ctypes.string_at(obuf, outb.pos)   # (.raw would copy all 1 MiB)
            if inb.pos == inb.size and outb.pos < cap:
                break
        outs.append(bytes(got))
    return outs


def zstd_frame(data, level):
    z = libzstd()
    cap = z.ZSTD_compressBound(len(data))
    buf = ctypes.create_string_buffer(cap)
    n = z.ZSTD_compress(buf, cap, data, len(data), level)
    if z.ZSTD_isError(n):
        sys.exit("pdswap: zstd: cannot compress")
    return ctypes.string_at(buf, n)


def revbyte(b):
    return int("{:08b}".format(b)[::-1], 2)


class Swapper:
    def __init__(self, data):
        self.src = bytes(data)
        self.out = bytearray(data)
        if data[:8] == b"PERFILE2":
            self.e, self.to = "<", ">"
        elif data[:8] == b"2ELIFREP":
            self.e, self.to = ">", "<"
        else:
            sys.exit("pdswap: not a perf.data file (magic %r)" % bytes(data[:8]))
        self.attrs = []             # (attr offset in src, ids)
        self.by_id = {}
        self.formats = {}           # tracepoint id -> [(offset, size, kind, elem)]
        self.nr_cpus = 0
        self.comp = []              # COMPRESSED records: (offset, size)

    # -- reading the input's order, swapping the output's bytes
    def get(self, fmt, off, buf=None):
        return struct.unpack_from(self.e + fmt, self.src if buf is None else buf, off)[0]

    def sw(self, off, n, buf=None):
        b = self.out if buf is None else buf
        b[off:off + n] = b[off:off + n][::-1]

    def u64s(self, off, end, buf=None, src=None):
        for o in range(off, end - 7, 8):
            self.sw(o, 8, buf)

    # -- attrs
    def attr(self, off, buf=None, src=None):
        src = self.src if src is None else src
        size = struct.unpack_from(self.e + "I", src, off + 4)[0] or 64
        self.sw(off, 4, buf)
        self.sw(off + 4, 4, buf)
        for fo, w in ATTR_FIELDS:
            if fo + w <= size:
                self.sw(off + fo, w, buf)
        b = self.out if buf is None else buf
        if size >= 48:
            for i in range(8):
                b[off + 40 + i] = revbyte(b[off + 40 + i])
        return size

    def sattr(self, off, src=None):
        src = self.src if src is None else src
        g = lambda o: struct.unpack_from(self.e + "Q", src, off + o)[0]
        size = struct.unpack_from(self.e + "I", src, off + 4)[0] or 64
        flags = g(40) if self.e == "<" else \
            struct.unpack("<Q", bytes(revbyte(b) for b in src[off + 40:off + 48]))[0]
        return {"type": struct.unpack_from(self.e + "I", src, off)[0], "config": g(8),
                "st": g(24), "rf": g(32), "flags": flags,
                "bst": g(72) if size >= 80 else 0, "ru": g(80) if size >= 88 else 0,
                "ri": g(96) if size >= 104 else 0}

    def add_attr(self, a, ids):
        self.attrs.append(a)
        for i in ids:
            self.by_id[i] = a

    # -- the tracing data
    def cstr(self, off):
        end = self.src.index(b"\0", off)
        return self.src[off:end].decode(), end + 1

    def fmt(self, off, n):
        text = self.src[off:off + n].decode(errors="replace")
        m = re.search(r"^ID: (\d+)", text, re.M)
        fields = []
        for line in text.splitlines():
            f = re.match(r"\s*field:(.*);\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d+);", line)
            if not f:
                continue
            decl, fo, fs = f.group(1).strip(), int(f.group(2)), int(f.group(3))
            arr = re.search(r"\[(\d*)\]\s*$", decl)
            base = re.sub(r"\[.*\]\s*$", "", decl).rsplit(None, 1)[0] if " " in decl else decl
            base = base.replace("__data_loc", "").replace("__rel_loc", "").strip()
            base = base.replace("unsigned", "").replace("signed", "").replace("const", "")
            base = base.strip() or "int"
            esize = 8 if "*" in base else TYPE_SIZES.get(base.split()[-1], 0)
            if "__data_loc" in decl or "__rel_loc" in decl:
                fields.append((fo, fs, "loc", esize if base.split()[-1] != "char" else 0))
            elif arr:
                count = int(arr.group(1)) if arr.group(1) else 0
                es = fs // count if count else 0
                fields.append((fo, fs, "arr", 0 if base.split()[-1] == "char" else es))
            else:
                fields.append((fo, fs, "num", fs))
        if m:
            self.formats[int(m.group(1))] = fields

    def tracing_data(self, base, size):
        p = base + 10
        version, p = self.cstr(p)
        self.out[p] ^= 1                    # the endian byte
        p += 2
        self.sw(p, 4)
        p += 4
        for name in ("header_page", "header_event"):
            p += len(name) + 1
            n = self.get("Q", p)
            self.sw(p, 8)
            p += 8 + n
        nr = self.get("I", p)
        self.sw(p, 4)
        p += 4
        for _ in range(nr):
            n = self.get("Q", p)
            self.sw(p, 8)
            self.fmt(p + 8, n)
            p += 8 + n
        nsys = self.get("I", p)
        self.sw(p, 4)
        p += 4
        for _ in range(nsys):
            _, p = self.cstr(p)
            nev = self.get("I", p)
            self.sw(p, 4)
            p += 4
            for _ in range(nev):
                n = self.get("Q", p)
                self.sw(p, 8)
                self.fmt(p + 8, n)
                p += 8 + n
        for _ in range(2):                  # kallsyms, printk formats
            n = self.get("I", p)
            self.sw(p, 4)
            p += 4 + n
        if float(version) >= 0.6 and p + 8 <= base + size:
            self.sw(p, 8)

    def raw(self, off, size, buf, src, config):
        """a tracepoint payload, field by field, as its kernel lays out the
        attr's event (whatever its common_type says)"""
        fields = self.formats.get(config, [])
        for fo, fs, kind, es in fields:
            if fo + fs > size:
                continue
            if kind == "num" and fs in (2, 4, 8):
                self.sw(off + fo, fs, buf)
            elif kind == "arr" and es in (2, 4, 8):
                for k in range(0, fs, es):
                    self.sw(off + fo + k, es, buf)
            elif kind == "loc":
                loc = struct.unpack_from(self.e + ("I" if fs == 4 else "H"), src, off + fo)[0]
                self.sw(off + fo, fs, buf)
                if fs == 4 and es in (2, 4, 8):
                    lo, ln = loc & 0xffff, loc >> 16
                    for k in range(lo, min(lo + ln, size) - es + 1, es):
                        self.sw(off + k, es, buf)

    # -- samples and records
    def trailer_size(self, st):
        return 8 * (bool(st & TID) + bool(st & TIME) + bool(st & ID) + bool(st & STREAM_ID) +
                    bool(st & CPU) + bool(st & IDENTIFIER))

    def attr_of(self, buf, src, off, size, typ):
        if len(self.attrs) == 1:
            return self.attrs[0]
        st = self.attrs[0]["st"]
        g = lambda o: struct.unpack_from(self.e + "Q", src, o)[0]
        if typ == 9:
            self.id_pos = 0 if st & IDENTIFIER else sum(bool(st & b) for b in (IP, TID, TIME, ADDR))
            if size < 8 + 8 * (self.id_pos + 1):
                return None
            return self.by_id.get(g(off + 8 + 8 * self.id_pos))
        if not self.attrs[0]["flags"] & (1 << 18):
            return self.attrs[0]
        back = 1 if st & IDENTIFIER else 1 + sum(bool(st & b) for b in (STREAM_ID, CPU))
        return self.by_id.get(g(off + size - 8 * back), self.attrs[0])

    def sample(self, a, off, size, buf, src):
        st, p, end = a["st"], off + 8, off + size
        g = lambda o: struct.unpack_from(self.e + "Q", src, o)[0]

        # a damaged sample: swap what lies inside the record, as a writer
        # of the other order would have written the same damage
        def q(n=1):
            nonlocal p
            for _ in range(n):
                if p + 8 <= end:
                    self.sw(p, 8, buf)
                p += 8

        def pair():
            nonlocal p
            if p + 8 <= end:
                self.sw(p, 4, buf)
                self.sw(p + 4, 4, buf)
            p += 8
        for bit, how in ((IDENTIFIER, q), (IP, q), (TID, pair), (TIME, q), (ADDR, q), (ID, q),
                         (STREAM_ID, q), (CPU, pair), (PERIOD, q)):
            if st & bit:
                how()
        if st & READ:
            rf = a["rf"]
            per = 1 + bool(rf & RF_ID) + bool(rf & RF_LOST)
            nr = 1
            if rf & RF_GROUP:
                nr = g(p)
                q()
            q(bool(rf & RF_ENABLED) + bool(rf & RF_RUNNING) + nr * per)
        if st & CALLCHAIN:
            nr = g(p)
            q(1 + nr)
        if st & RAW and p + 4 <= end:
            n = struct.unpack_from(self.e + "I", src, p)[0]
            self.sw(p, 4, buf)
            if a["type"] == 2:
                self.raw(p + 4, min(n, end - p - 4), buf, src, a["config"])
            p += 4 + n
        if p >= end:
            return
        if st & BRANCH:
            nr = g(p)
            q(1 + bool(a["bst"] & (1 << 17)))
            for _ in range(nr):
                q(2)
                if p + 8 > end:
                    break
                v, nv = g(p), 0
                for le, w in BRANCH_FIELDS:
                    be, m = 64 - le - w, (1 << w) - 1
                    nv |= ((v >> le) & m) << be if self.e == "<" else ((v >> be) & m) << le
                struct.pack_into(self.to + "Q", buf, p, nv)
                p += 8
        for bit, mask in ((REGS_USER, "ru"), (STACK_USER, None), (WEIGHT | WEIGHT_STRUCT, 0),
                          (DATA_SRC, 0), (TRANSACTION, 0), (REGS_INTR, "ri"), (PHYS_ADDR, 0),
                          (CGROUP, 0), (DATA_PAGE, 0), (CODE_PAGE, 0), (AUX, None)):
            if not st & bit:
                continue
            if p + 8 > end:
                break
            if mask:
                abi = g(p)
                q()
                if abi:
                    q(bin(a[mask]).count("1"))
            elif bit in (STACK_USER, AUX):
                n = g(p)
                q()
                p += n
                if n and bit == STACK_USER:
                    q()
            else:
                q()

    KERNEL = {1: "IIQQQ", 2: "QQ", 3: "II", 4: "IIIIQ", 7: "IIIIQ", 5: "QQQ", 6: "QQQ",
              8: "II", 11: "QQQ", 12: "II", 13: "Q", 15: "II", 16: "II", 17: "QIHH",
              18: "HHI", 19: "Q", 20: "QHH", 21: "Q"}

    def fields(self, widths, p, buf):
        for c in widths:
            n = struct.calcsize(c) if c != "x" else 1
            if c in "HIQ":
                self.sw(p, n, buf)
            p += n
        return p

    def kernel(self, off, size, typ, buf, src):
        misc = struct.unpack_from(self.e + "H", src, off + 4)[0]
        a = self.attr_of(buf, src, off, size, typ) if self.attrs else None
        sid = a and a["flags"] & (1 << 18)
        end = off + size - (self.trailer_size(a["st"]) if sid else 0)
        widths = self.KERNEL.get(typ, "")
        if typ == 10:
            widths = "IIQQQ" + ("xxH" + "x" * 20 if misc & (1 << 14) else "IIQQ") + "II"
        p = self.fields(widths, off + 8, buf)
        if typ == 8:
            self.u64s(p, end, buf)
        if typ == 16:
            nr = struct.unpack_from(self.e + "Q", src, p)[0]
            self.u64s(p, p + 8 + 16 * nr, buf)
        if sid:
            st, p = a["st"], end
            for bit in (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER):
                if st & bit:
                    if bit in (TID, CPU):
                        self.sw(p, 4, buf)
                        self.sw(p + 4, 4, buf)
                    else:
                        self.sw(p, 8, buf)
                    p += 8

    def user(self, off, size, typ, buf, src):
        g = lambda o, f="Q": struct.unpack_from(self.e + f, src, o)[0]
        if typ == 64:                       # HEADER_ATTR
            a = self.sattr(off + 8, src)
            asz = self.attr(off + 8, buf, src)
            ids = [g(o) for o in range(off + 8 + asz, off + size - 7, 8)]
            self.u64s(off + 8 + asz, off + size, buf)
            self.add_attr(a, ids)
        elif typ in (65, 69, 75, 77) or typ == 79:
            self.u64s(off + 8, off + (min(size, 48) if typ == 79 else size), buf)
            if typ == 65:
                self.u64s(off + 16, off + 16, buf)
        elif typ == 66:
            self.sw(off + 8, 4, buf)
        elif typ == 67:
            self.sw(off + 8, 4, buf)
        elif typ == 70:
            self.sw(off + 8, 4, buf)
            self.sw(off + 12, 4, buf)
            self.u64s(off + 16, off + size, buf)
        elif typ == 73:
            nr = g(off + 8)
            self.sw(off + 8, 8, buf)
            for i in range(nr):
                self.sw(off + 16 + 24 * i, 8, buf)
        elif typ == 74:
            self.cpu_map(off + 8, buf, src)
        elif typ == 76:
            self.fields("QIIQQQ", off + 8, buf)
        elif typ == 78:
            t = g(off + 8)
            self.u64s(off + 8, off + 24, buf)
            if t == 1:
                self.sw(off + 24, 8, buf)
            elif t == 3:
                self.cpu_map(off + 24, buf, src)
            elif t == 0x74626f78:
                self.scmap(off + 24, buf, src)
        elif typ == 80:
            feat = g(off + 8)
            self.sw(off + 8, 8, buf)
            self.feature(feat, off + 16, size - 16, buf, src)

    def cpu_map(self, p, buf, src):
        t = struct.unpack_from(self.e + "H", src, p)[0]
        self.sw(p, 2, buf)
        if t == 0:
            nr = struct.unpack_from(self.e + "H", src, p + 2)[0]
            for i in range(nr + 1):
                self.sw(p + 2 + 2 * i, 2, buf)
        elif t == 1:
            nr, ls = struct.unpack_from(self.e + "HH", src, p + 2)
            self.sw(p + 2, 2, buf)
            self.sw(p + 4, 2, buf)
            at = p + 6 + (4 if ls == 8 else 0)
            for i in range(nr):
                self.sw(at + ls * i, ls, buf)
        elif t == 2:
            self.sw(p + 4, 2, buf)
            self.sw(p + 6, 2, buf)

    def scmap(self, p, buf, src):
        g = lambda o: struct.unpack_from(self.e + "I", src, o)[0]
        self.sw(p, 4, buf)
        p += 4
        for _ in range(2):
            n = g(p)
            self.sw(p, 4, buf)
            p += 4 + n
        nr = g(p)
        self.sw(p, 4, buf)
        p += 4
        for _ in range(nr):
            self.sw(p, 4, buf)
            n = g(p + 4)
            self.sw(p + 4, 4, buf)
            p += 8 + n

    # -- feature sections
    def feature(self, feat, p, size, buf=None, src=None):
        src = self.src if src is None else src
        end = p + size
        g32 = lambda o: struct.unpack_from(self.e + "I", src, o)[0]
        g64 = lambda o: struct.unpack_from(self.e + "Q", src, o)[0]

        def i32(n=1):
            nonlocal p
            for _ in range(n):
                self.sw(p, 4, buf)
                p += 4

        def i64(n=1):
            nonlocal p
            for _ in range(n):
                self.sw(p, 8, buf)
                p += 8

        def s():
            nonlocal p
            n = g32(p)
            i32()
            p += n

        def lst(shape):
            n = g32(p)
            i32()
            for _ in range(n):
                for k in shape:
                    {"s": s, "i": i32, "q": i64}[k]()
        if feat == 1:
            self.tracing_data(p, size)
        elif feat == 2:
            while end - p >= 12:
                rsz = struct.unpack_from(self.e + "H", src, p + 6)[0]
                self.sw(p, 4, buf)
                self.sw(p + 4, 2, buf)
                self.sw(p + 6, 2, buf)
                self.sw(p + 8, 4, buf)
                p += rsz
        elif feat in (3, 4, 5, 6, 8, 9):
            s()
        elif feat == 7:
            self.nr_cpus = g32(p)
            i32(2)
        elif feat in (10, 23, 24):
            i64()
        elif feat == 11:
            lst("s")
        elif feat == 12:
            nr, asz = g32(p), g32(p + 4)
            i32(2)
            for _ in range(nr):
                self.attr(p, buf, src)
                p += asz
                n = g32(p)
                i32()
                s()
                i64(n)
        elif feat == 13:
            lst("s")
            lst("s")
            i32(2 * self.nr_cpus)
            if p < end:
                lst("s")
                i32(self.nr_cpus)
        elif feat == 14:
            lst("iqqs")
        elif feat == 16:
            lst("is")
        elif feat == 17:
            lst("sii")
        elif feat == 18:
            self.u64s(p, end, buf)
        elif feat == 20:
            i32()
            lst("iiiisss")
        elif feat == 21:
            i64(2)
        elif feat == 22:
            i64(2)
            nr = g64(p)
            i64()
            for _ in range(nr):
                nbits = g64(p + 16)
                i64(3 + (nbits + 63) // 64)
        elif feat == 27:
            i32(5)
        elif feat in (28, 30):
            lst("ss")
        elif feat == 29:
            i32(2)
            i64(2)
        elif feat == 31:
            n = g32(p)
            i32()
            for _ in range(n):
                lst("ss")
                s()
        elif feat in (25, 26) and size == 4:
            i32()
        elif feat == 200:
            self.scmap(p, buf if buf is not None else self.out, src)

    # -- walking
    def record(self, off, size, buf=None, src=None):
        src = self.src if src is None else src
        b = self.out if buf is None else buf
        typ = struct.unpack_from(self.e + "I", src, off)[0]
        for o, n in ((0, 4), (4, 2), (6, 2)):
            self.sw(off + o, n, b)
        if typ == 9:
            a = self.attr_of(b, src, off, size, typ)
            if a is not None:
                self.sample(a, off, size, b, src)
            elif size >= 8 + 8 * (self.id_pos + 1):   # a damaged id: the id alone
                self.sw(off + 8 + 8 * self.id_pos, 8, b)
        elif 0 < typ <= 21:
            self.kernel(off, size, typ, b, src)
        elif typ == 81:
            self.comp.append((off, size))
        elif typ >= 64:
            self.user(off, size, typ, b, src)

    def compressed_all(self):
        """each COMPRESSED payload is one zstd frame and records may span
        frames: the frames' text is swapped as one stream, cut back to each
        frame's length and compressed anew"""
        chunks = zstd_stream([self.src[off + 8:off + size] for off, size in self.comp])
        data = b"".join(chunks)
        out = bytearray(data)
        p = 0
        while len(data) - p >= 8:
            n = struct.unpack_from(self.e + "H", data, p + 6)[0]
            if n < 8 or n > len(data) - p:
                break
            self.record(p, n, out, data)
            p += n
        recs, pos = [], 0
        for (off, size), c in zip(self.comp, chunks):
            z = zstd_frame(bytes(out[pos:pos + len(c)]), 3)
            if 8 + len(z) > 0xffff:
                sys.exit("pdswap: a compressed record outgrows 64 KiB")
            recs.append(z)
            pos += len(c)
        return recs

    def walk(self, p, end, pipe=False):
        while p + 8 <= end:
            size = self.get("H", p + 6)
            typ = self.get("I", p)
            if size < 8 or size > end - p:     # damaged: its header, then stop
                for o, n in ((0, 4), (4, 2), (6, 2)):
                    self.sw(p + o, n)
                return p
            self.record(p, size)
            p += size
            if pipe and typ == 66:
                n = self.get("I", p - size + 8)
                self.tracing_data(p, n)
                p += (n + 7) & ~7
        return p


def rebuild_compressed(sw):
    """the file with each COMPRESSED record's payload replaced; returns it
    and how much the data section grew"""
    out, prev = bytearray(), 0
    for (off, size), z in zip(sw.comp, sw.compressed_all()):
        out += sw.out[prev:off]
        rec = bytearray(sw.out[off:off + 8])
        struct.pack_into(sw.to + "H", rec, 6, 8 + len(z))
        out += rec + z
        prev = off + size
    out += sw.out[prev:]
    return out, len(out) - len(sw.out)


def main():
    long32 = "--long32" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--long32"]
    if len(args) != 2:
        sys.exit(__doc__)
    src = open(args[0], "rb").read()
    sw = Swapper(src)
    sw.comp = []
    e = sw.e
    sw.out[0:8] = src[0:8][::-1]
    hsize = struct.unpack_from(e + "Q", src, 8)[0]
    if hsize == 16:
        sw.sw(8, 8)
        sw.walk(16, len(src), pipe=True)
        data_off = data_size = None
    else:
        sw.u64s(8, hsize)
        aoff, asize = struct.unpack_from(e + "QQ", src, 24)
        data_off, data_size = struct.unpack_from(e + "QQ", src, 40)
        bitmap = struct.unpack_from(e + "4Q", src, 72)
        p = aoff
        while p + 64 <= aoff + asize:
            a = sw.sattr(p)
            asz = sw.attr(p)
            ioff, isize = struct.unpack_from(e + "QQ", src, p + asz)
            sw.u64s(p + asz, p + asz + 16)
            sw.add_attr(a, [struct.unpack_from(e + "Q", src, o)[0]
                            for o in range(ioff, ioff + isize, 8)])
            sw.u64s(ioff, ioff + isize)
            p += asz + 16
        bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
        idx = data_off + data_size
        secs = [struct.unpack_from(e + "QQ", src, idx + 16 * k) for k in range(len(bits))]
        sw.u64s(idx, idx + 16 * len(bits))
        for feat, (off, size) in zip(bits, secs):      # tracing data first: formats
            if feat == 1:
                sw.feature(feat, off, size)
        for feat, (off, size) in zip(bits, secs):
            if feat != 1:
                sw.feature(feat, off, size)
        sw.walk(data_off, data_off + data_size)
    out = sw.out
    if sw.comp:
        out, delta = rebuild_compressed(sw)
        if data_off is not None:
            fix_offsets(sw, out, data_off, data_size, delta)
    if long32 and data_off is not None:     # the bitmap as a 32-bit machine's longs
        words = struct.unpack_from(e + "8I", src, 72)
        struct.pack_into(sw.to + "8I", out, 72, *words)
    open(args[1], "wb").write(out)


def fix_offsets(sw, out, data_off, data_size, delta):
    """COMPRESSED records changed size: the data size and every section
    after the data move with them"""
    to = sw.to
    struct.pack_into(to + "Q", out, 48, data_size + delta)
    bitmap = struct.unpack_from(sw.e + "4Q", sw.src, 72)
    nbits = sum(bin(w).count("1") for w in bitmap)
    idx = data_off + data_size + delta
    for k in range(nbits):
        off = struct.unpack_from(to + "Q", out, idx + 16 * k)[0]
        if off >= data_off + data_size:
            struct.pack_into(to + "Q", out, idx + 16 * k, off + delta)
    for o in (24, 56):                  # attrs and event types, if after the data
        off = struct.unpack_from(to + "Q", out, o)[0]
        if off >= data_off + data_size:
            struct.pack_into(to + "Q", out, o, off + delta)


main()
