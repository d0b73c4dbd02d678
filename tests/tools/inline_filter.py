#!/usr/bin/env python3
"""inline_filter.py - drop the inline frames of DSOs other than those named.

perf 6.1 asks binutils' addr2line for inline frames with a one-second
deadline per answer: on a loaded machine the first answers for a large
debug file (libc6-dbg's) come late and perf prints those frames without
their inline chain. To compare stacks with perf byte for byte where that
cannot happen, this keeps the inline frames (a frame line, its source line
if any, "(inlined)" on either) only in front of a real frame of one of the
DSOs given, and drops the others; every other line passes unchanged.
    inline_filter.py DSO_PATH... < perf-script-output
"""
import sys


def main():
    keep = ["(%s)" % d for d in sys.argv[1:]]
    lines = sys.stdin.read().split("\n")
    out, pending = [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("\t"):
            out.extend(pending)
            pending = []
            out.append(line)
            i += 1
            continue
        unit = [line]
        if i + 1 < len(lines) and lines[i + 1].startswith("  "):
            unit.append(lines[i + 1])
        i += len(unit)
        if any(u.endswith(" (inlined)") for u in unit):
            pending.extend(unit)
            continue
        if any(k in unit[0] for k in keep):
            out.extend(pending)
        pending = []
        out.extend(unit)
    out.extend(pending)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
