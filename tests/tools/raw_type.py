#!/usr/bin/env python3
# raw_type.py SRC DST N TYPE - SRC (file mode) with the common_type of the
# Nth SAMPLE record's raw data set to TYPE: the record then names another
# event than the attr its id gives. Reads every attr's sample_type and
# read_format (a :S group's READ values come before the raw data).
import struct
import sys

S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR, S_READ, S_CALLCHAIN, S_ID, S_CPU, S_PERIOD, \
    S_STREAM_ID, S_RAW = 1 << 16, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024
F_TOTAL_ENABLED, F_TOTAL_RUNNING, F_ID, F_GROUP, F_LOST = 1, 2, 4, 8, 16

src, dst, nth, typ = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
d = bytearray(open(src, 'rb').read())
attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
st, rf = set(), set()
for a in range(attrs_off, attrs_off + attrs_size, attr_size):
    st.add(struct.unpack_from('<Q', d, a + 24)[0])      # sample_type
    rf.add(struct.unpack_from('<Q', d, a + 32)[0])      # read_format
if len(st) != 1 or len(rf) != 1:
    sys.exit('%s: attrs differ in sample_type or read_format' % src)
st, rf = st.pop(), rf.pop()
off, seen = data_off, 0
while off < data_off + data_size:
    rtype, misc, size = struct.unpack_from('<IHH', d, off)
    if size < 8:
        sys.exit('%s: record of size %d at %#x' % (src, size, off))
    if rtype == 9:
        o = off + 8
        for bit in (S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD):
            o += 8 if st & bit else 0
        if st & S_READ:
            nr = struct.unpack_from('<Q', d, o)[0] if rf & F_GROUP else 1
            o += 8 if rf & F_GROUP else 0
            o += 8 * (bool(rf & F_TOTAL_ENABLED) + bool(rf & F_TOTAL_RUNNING))
            o += nr * 8 * (1 + bool(rf & F_ID) + bool(rf & F_LOST))
        if st & S_CALLCHAIN:
            o += 8 + 8 * struct.unpack_from('<Q', d, o)[0]
        if st & S_RAW and seen == nth:
            struct.pack_into('<H', d, o + 4, typ)          # after the u32 raw size
            open(dst, 'wb').write(d)
            sys.exit(0)
        seen += 1
    off += size
sys.exit('%s: fewer than %d samples with raw data' % (src, nth + 1))
