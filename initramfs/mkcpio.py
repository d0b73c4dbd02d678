#!/usr/bin/python3
# mkcpio.py - pack a staged root folder as a gzipped cpio "newc" archive (the
# initramfs format, Documentation/driver-api/early-userspace/buffer-format.rst),
# every entry owned by root, with fixed dates, plus device nodes no build
# user could create.
# SPDX-License-Identifier: GPL-2.0-only
#
# usage: mkcpio.py ROOT OUT.cpio.gz [NODE...]   NODE: path:c|b:major:minor:mode
#   e.g. dev/console:c:5:1:600 (the kernel opens it for init before /init runs)
import gzip
import os
import stat
import sys


def header(ino, mode, nlink, size, name, rdev=(0, 0)):
    fields = (ino, mode, 0, 0, nlink, 0, size, 0, 0, rdev[0], rdev[1], len(name) + 1, 0)
    return b'070701' + b''.join(b'%08X' % f for f in fields) + name + b'\0'


def pad(n):
    return b'\0' * (-n % 4)


def entry(out, ino, mode, nlink, name, data=b'', rdev=(0, 0)):
    h = header(ino, mode, nlink, len(data), name.encode(), rdev)
    out.write(h + pad(len(h)) + data + pad(len(data)))


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: mkcpio.py ROOT OUT.cpio.gz [path:c|b:major:minor:mode...]')
    root, out_path, nodes = sys.argv[1], sys.argv[2], sys.argv[3:]
    paths = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in dirs + sorted(files):
            paths.append(os.path.relpath(os.path.join(d, n), root))
    ino = 1
    with open(out_path + '.tmp', 'wb') as raw, \
            gzip.GzipFile(fileobj=raw, mode='wb', compresslevel=9, mtime=0) as out:
        for p in sorted(paths):
            st = os.lstat(os.path.join(root, p))
            perm = stat.S_IMODE(st.st_mode)
            if stat.S_ISDIR(st.st_mode):
                entry(out, ino, stat.S_IFDIR | perm, 2, p)
            elif stat.S_ISLNK(st.st_mode):
                entry(out, ino, stat.S_IFLNK | 0o777, 1, p, os.readlink(os.path.join(root, p)).encode())
            elif stat.S_ISREG(st.st_mode):
                with open(os.path.join(root, p), 'rb') as f:
                    entry(out, ino, stat.S_IFREG | perm, 1, p, f.read())
            else:
                sys.exit('mkcpio.py: %s: not a file, folder or symlink' % p)
            ino += 1
        for n in nodes:
            p, kind, major, minor, mode = n.split(':')
            fmt = stat.S_IFCHR if kind == 'c' else stat.S_IFBLK
            entry(out, ino, fmt | int(mode, 8), 1, p, rdev=(int(major), int(minor)))
            ino += 1
        entry(out, 0, 0, 1, 'TRAILER!!!')
    os.replace(out_path + '.tmp', out_path)


if __name__ == '__main__':
    main()
