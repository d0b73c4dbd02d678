#!/usr/bin/env python3
"""setshndx.py - a copy of a 64-bit little-endian ELF with one .symtab
symbol's section index (st_shndx) changed: a symbol of a section that is
not there, as a damaged or odd file has.

usage: setshndx.py IN OUT SYMBOL INDEX   (INDEX: decimal or 0x hex)
Stdlib only; exits non-zero if SYMBOL is not in .symtab.
"""
import struct
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    src, dst, name, index = sys.argv[1], sys.argv[2], sys.argv[3].encode(), int(sys.argv[4], 0)
    d = bytearray(open(src, 'rb').read())
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        sys.exit('setshndx.py: %s: not a 64-bit little-endian ELF' % src)
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<3H', d, 0x3a)
    secs = [struct.unpack_from('<IIQQQQII', d, shoff + i * shentsize) for i in range(shnum)]

    def cstr(off):
        return bytes(d[off:d.index(0, off)])
    names_at = secs[shstrndx][4]
    hits = 0
    for sh_name, _, _, _, off, size, link, _ in secs:
        if cstr(names_at + sh_name) != b'.symtab':
            continue
        strtab = secs[link][4]
        for o in range(off, off + size, 24):
            if cstr(strtab + struct.unpack_from('<I', d, o)[0]) == name:
                struct.pack_into('<H', d, o + 6, index)
                hits += 1
    if not hits:
        sys.exit('setshndx.py: %s: no symbol %s in .symtab' % (src, name.decode()))
    open(dst, 'wb').write(d)


main()
