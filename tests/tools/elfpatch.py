#!/usr/bin/env python3
"""elfpatch.py - a copy of a 64-bit little-endian ELF, damaged on purpose
the way odd or broken files are, for the symbol readers' tests:

  elfpatch.py shndx IN OUT SYMBOL INDEX   .symtab's SYMBOL gets section
                                          INDEX (one that is not there)
  elfpatch.py last IN OUT SYMBOL          .symtab's last entry becomes a
                                          copy of SYMBOL's
  elfpatch.py entsize IN OUT SECTION N    SECTION's sh_entsize becomes N
  elfpatch.py size IN OUT SECTION N       SECTION's sh_size becomes N
  elfpatch.py machine IN OUT N            e_machine becomes N (2 SPARC,
                                          43 SPARCV9: their PLT layouts)

INDEX and N: decimal or 0x hex. Stdlib only; exits non-zero when the
symbol or section is not there.
"""
import struct
import sys


def sections(d):
    """[(name, header offset, sh_offset, sh_size, sh_link)], by index"""
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<3H', d, 0x3a)
    raw = [(shoff + i * shentsize, struct.unpack_from('<IIQQQQII', d, shoff + i * shentsize))
           for i in range(shnum)]
    names = raw[shstrndx][1][4]
    return [(cstr(d, names + h[0]), at, h[4], h[5], h[6]) for at, h in raw]


def cstr(d, off):
    return bytes(d[off:d.index(0, off)])


def symtab_entries(d, name):
    """offsets of .symtab's entries named NAME, and of its last entry"""
    secs = sections(d)
    for sname, _, off, size, link in secs:
        if sname == b'.symtab':
            strtab = secs[link][2]
            hits = [o for o in range(off, off + size, 24)
                    if cstr(d, strtab + struct.unpack_from('<I', d, o)[0]) == name]
            return hits, off + size - 24
    return [], None


def main():
    a = sys.argv[1:]
    if len(a) < 4 or a[0] not in ('shndx', 'last', 'entsize', 'size', 'machine'):
        sys.exit(__doc__)
    d = bytearray(open(a[1], 'rb').read())
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        sys.exit('elfpatch.py: %s: not a 64-bit little-endian ELF' % a[1])
    if a[0] == 'machine':
        struct.pack_into('<H', d, 0x12, int(a[3], 0))
    elif a[0] in ('entsize', 'size'):
        hit = [at for name, at, _, _, _ in sections(d) if name == a[3].encode()]
        if not hit:
            sys.exit('elfpatch.py: %s: no section %s' % (a[1], a[3]))
        struct.pack_into('<Q', d, hit[0] + (56 if a[0] == 'entsize' else 32), int(a[4], 0))
    else:
        hits, last = symtab_entries(d, a[3].encode())
        if not hits:
            sys.exit('elfpatch.py: %s: no symbol %s in .symtab' % (a[1], a[3]))
        for o in hits:
            if a[0] == 'shndx':
                struct.pack_into('<H', d, o + 6, int(a[4], 0))
            else:
                d[last:last + 24] = d[o:o + 24]
    open(a[2], 'wb').write(d)


main()
