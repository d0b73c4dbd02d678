#!/usr/bin/env python3
# kernel_map_noref.py SRC DST keep|zero|rename - SRC with its kernel map's
# name cut to "[kernel.kallsyms]" (no reference symbol after it), its pgoff
# kept (keep: no recording tool writes that) or zeroed (zero: as
# kptr_restrict leaves it); rename: the name "[kernel.kallsyms]_tezt", a
# reference symbol no kernel has. The map is the one MMAP/MMAP2 record
# naming "_text".
import struct
import sys

src, dst, how = sys.argv[1], sys.argv[2], sys.argv[3]
d = bytearray(open(src, 'rb').read())
name = b'[kernel.kallsyms]_text'
if d.count(name) != 1:
    sys.exit('%s: %d kernel maps naming _text, not one' % (src, d.count(name)))
i = d.index(name)
for back, typ in ((40, 1), (72, 10)):          # where the name starts in MMAP, MMAP2
    if struct.unpack_from('<I', d, i - back)[0] == typ:
        rec = i - back
        break
else:
    sys.exit('%s: no MMAP record holds the kernel map' % src)
if how == 'rename':
    d[i + 17:i + 22] = b'_tezt'
else:
    d[i + 17:i + 22] = b'\0' * 5
if how == 'zero':
    struct.pack_into('<Q', d, rec + 32, 0)
open(dst, 'wb').write(d)
