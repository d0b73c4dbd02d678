#!/usr/bin/env python3
"""inline_filter.py - keep the frames of the DSOs named, reduce the others.

perf 6.1 names the frames the compiler inlined (and the functions whose
DWARF name is not their symbol's) with what binutils' addr2line answers.
For the system's libraries that answer is at times not the DWARF's (an
assembly function's alias: __GI_mprotect, __memcpy_avx512_unaligned_erms
where the DWARF and eu-addr2line say __mprotect, or nothing), and perf
gives addr2line a second per answer, so on a loaded machine a frame may
come without its inline frames. To compare stacks with perf byte for byte
where neither can happen, each address's frames (a frame line, its source
line if any, and the frames before it at the same address that are
"(inlined)") are kept whole when the address's real frame names one of the
DSOs given, and otherwise reduced to one line: the address and "-". Every
other line passes unchanged.
    inline_filter.py DSO_PATH... < perf-script-output
"""
import sys


def units(lines):
    """(kind, lines): ("text", [line]) or ("frame", [frame line, source line?])"""
    i = 0
    while i < len(lines):
        if not lines[i].startswith("\t"):
            yield "text", [lines[i]]
            i += 1
            continue
        u = [lines[i]]
        if i + 1 < len(lines) and lines[i + 1].startswith("  "):
            u.append(lines[i + 1])
        i += len(u)
        yield "frame", u


def main():
    keep = ["(%s)" % d for d in sys.argv[1:]]
    out, group, addr = [], [], None

    def flush():
        if not group:
            return
        real = [u for u in group if not any(l.endswith(" (inlined)") for l in u)]
        if real and any(k in real[-1][0] for k in keep):
            for u in group:
                out.extend(u)
        else:
            out.append("\t%s -" % addr)
        group.clear()

    for kind, u in units(sys.stdin.read().split("\n")):
        if kind == "text":
            flush()
            out.extend(u)
            continue
        a = u[0].split()[0]
        inlined = any(l.endswith(" (inlined)") for l in u)
        if group and a != addr:
            flush()
        addr = a
        group.append(u)
        if not inlined:           # the real frame ends its address's frames
            flush()
    flush()
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
