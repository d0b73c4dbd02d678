#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mkseeds.py - write the fuzz targets' seed corpora from the real recordings.

usage: mkseeds.py FILES_DIR CORPUS_DIR [TRACEFS]

From FILES_DIR/small.data (file mode) and small-pipe.data (pipe mode):
  pd_file/       the recording itself
  pd_pipe/       the pipe-mode recording itself
  tracing_data/  the TRACING_DATA feature payload
  pd_file/, pd_pipe/, tracing_data/ also get the recordings written in the
                 other byte order (tests/tools/pdswap.py: -swapped seeds)
  sample/        u64 sample_type, u8 body_min, one record: a sample of each
                 attr and one of each other record type (comm, fork, exit...)
  fields/        u8 flags, u8 capacity/8, a format file, NUL, the raw data of
                 a sample of that event
With TRACEFS (a mounted tracefs, read only), fields/ also gets the formats
in HOST_FORMATS, each with an all-zero record: one per print helper and
%p extension libtraceevent implements. Input layouts: the fuzz_*.c headers. Python 3 stdlib only
(and libzstd, through ctypes, for the swapped -z seeds).
"""
import os
import struct
import subprocess
import sys

S_IP, S_TID, S_TIME, S_ADDR, S_CALLCHAIN, S_ID, S_CPU, S_PERIOD, S_STREAM_ID, S_RAW = (
    1 << b for b in (0, 1, 2, 3, 5, 6, 7, 8, 9, 10))
S_IDENTIFIER = 1 << 16
BODY_MIN = {1: 8, 2: 24, 3: 17, 4: 32, 7: 32, 10: 8, 13: 16}


HOST_FORMATS = """sched/sched_switch sched/sched_wakeup sched/sched_skip_cpuset_numa
irq/softirq_entry alarmtimer/alarmtimer_fired block/block_io_done kvm/kvm_emulate_insn
dma/dma_alloc_sgt ipi/ipi_send_cpumask neigh/neigh_cleanup_and_release fib/fib_table_lookup
bridge/br_mdb_full btrfs/add_delayed_data_ref btrfs/btrfs_work_queued
hugetlbfs/hugetlbfs_setattr ftrace/function ftrace/print ftrace/bprint
ftrace/kernel_stack ftrace/funcgraph_entry skb/kfree_skb syscalls/sys_enter_openat
kmem/kmalloc writeback/writeback_dirty_inode""".split()


def u16(d, o): return struct.unpack_from("<H", d, o)[0]
def u32(d, o): return struct.unpack_from("<I", d, o)[0]
def u64(d, o): return struct.unpack_from("<Q", d, o)[0]


def file_layout(d):
    """attrs [(config, sample_type, ids)], data records, feature payloads by bit."""
    attr_size, aoff, asize = u64(d, 16), u64(d, 24), u64(d, 32)
    doff, dsize = u64(d, 40), u64(d, 48)
    attrs = []
    for k in range(asize // attr_size):
        a = aoff + k * attr_size
        sz = u32(d, a + 4) or 64
        ioff, isize = u64(d, a + sz), u64(d, a + sz + 8)
        ids = [u64(d, ioff + 8 * i) for i in range(isize // 8)]
        attrs.append((u64(d, a + 8), u64(d, a + 24), ids))
    recs, o = [], doff
    while o < doff + dsize:
        size = u16(d, o + 6)
        recs.append(d[o:o + size])
        o += size
    bitmap = struct.unpack_from("<4Q", d, 72)
    bits = [b for b in range(256) if bitmap[b // 64] >> (b % 64) & 1]
    feats, idx = {}, doff + dsize
    for i, b in enumerate(bits):
        off, size = struct.unpack_from("<QQ", d, idx + 16 * i)
        feats[b] = d[off:off + size]
    return attrs, recs, feats


def formats(td):
    """{event id: format text} from a tracing data payload."""
    o = 10
    o = td.index(b"\0", o) + 1 + 2 + 4       # version, endian, long size, page size
    o += 12
    o += 8 + u64(td, o)                      # header_page
    o += 13
    o += 8 + u64(td, o)                      # header_event
    out, texts = {}, []
    n = u32(td, o)
    o += 4
    for _ in range(n):
        size = u64(td, o)
        texts.append(td[o + 8:o + 8 + size])
        o += 8 + size
    nsys = u32(td, o)
    o += 4
    for _ in range(nsys):
        o = td.index(b"\0", o) + 1
        nev = u32(td, o)
        o += 4
        for _ in range(nev):
            size = u64(td, o)
            texts.append(td[o + 8:o + 8 + size])
            o += 8 + size
    for t in texts:
        for line in t.split(b"\n"):
            if line.startswith(b"ID: "):
                out[int(line[4:])] = t
    return out, texts


def raw_of(rec, st):
    o = 8
    for bit in (S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD):
        if st & bit:
            o += 8
    if st & S_CALLCHAIN:
        o += 8 + 8 * u64(rec, o)
    if not st & S_RAW:
        return None
    size = u32(rec, o)
    return rec[o + 4:o + 4 + size]


def write(dirpath, name, data):
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, name), "wb") as f:
        f.write(data)


def swapped_seeds(files, out):
    """the recordings as a machine of the other byte order writes them
    (tests/tools/pdswap.py), and their tracing data (big-endian numbers)"""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "pdswap.py")
    for name, target in (("small.data", "pd_file"), ("small-z.data", "pd_file"),
                         ("small-pipe.data", "pd_pipe"), ("small-z-pipe.data", "pd_pipe")):
        dst = os.path.join(out, target, "seed-%s-swapped.data" % name[:-len(".data")])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        subprocess.run([sys.executable, tool, os.path.join(files, name), dst], check=True)
    d = open(os.path.join(out, "pd_file", "seed-small-swapped.data"), "rb").read()
    doff, dsize = struct.unpack_from(">QQ", d, 40)
    off, size = struct.unpack_from(">QQ", d, doff + dsize)     # bit 1 is the first
    write(os.path.join(out, "tracing_data"), "seed-small-swapped.td", d[off:off + size])


def main():
    files, out = sys.argv[1], sys.argv[2]
    d = open(os.path.join(files, "small.data"), "rb").read()
    write(os.path.join(out, "pd_file"), "seed-small.data", d)
    write(os.path.join(out, "pd_pipe"), "seed-small-pipe.data",
          open(os.path.join(files, "small-pipe.data"), "rb").read())
    attrs, recs, feats = file_layout(d)
    td = feats[1]
    write(os.path.join(out, "tracing_data"), "seed-small.td", td)
    swapped_seeds(files, out)
    fmts, texts = formats(td)
    for i, t in enumerate(texts):
        write(os.path.join(out, "fields"), "seed-format%d" % i, b"\0\xff" + t + b"\0" + bytes(64))
    by_id = {i: a for a in attrs for i in a[2]}
    seen = set()
    for rec in recs:
        typ = u32(rec, 0)
        st = attrs[0][1]
        if typ == 9:
            pos = 0 if st & S_IDENTIFIER else sum(1 for b in (S_IP, S_TID, S_TIME, S_ADDR)
                                                  if st & b)
            ident = u64(rec, 8 + 8 * pos) if st & (S_IDENTIFIER | S_ID) else None
            a = by_id.get(ident, attrs[0])
            key = ("sample", a[0])
        elif typ in BODY_MIN:
            key = ("rec", typ)
        else:
            continue
        if key in seen:
            continue
        seen.add(key)
        st = a[1] if typ == 9 else st
        write(os.path.join(out, "sample"), "seed-type%d-%s" % (typ, key[1]),
              struct.pack("<QB", st, BODY_MIN.get(typ, 8)) + rec)
        if typ == 9 and a[0] in fmts:
            write(os.path.join(out, "fields"), "seed-event%d" % a[0],
                  b"\0\xff" + fmts[a[0]] + b"\0" + raw_of(rec, st))
    if len(sys.argv) > 3:
        for ev in HOST_FORMATS:
            path = os.path.join(sys.argv[3], "events", ev, "format")
            if os.path.exists(path):
                write(os.path.join(out, "fields"), "seed-host-" + ev.replace("/", "-"),
                      b"\0\xff" + open(path, "rb").read() + b"\0" + bytes(128))


main()
